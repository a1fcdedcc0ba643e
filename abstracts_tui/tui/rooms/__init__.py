"""The full-screen app served over SSH and in a browser's page, over the server's rooms:
`app` (`ServerApp`: the game app with a lobby as its home screen), `lobby`, `archive`,
`create`, `challenges`, `signals` (your-move signals), and `driver`, the Textual driver
that draws on a channel (`resizes`: how often it lays out for a new size). The rooms
are reached through `...rooms.client`; the server that hosts these apps is `...server`.
"""
