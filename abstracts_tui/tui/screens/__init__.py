"""Full screens of the app: choosing a game (`select`), playing it (`play`), the help."""
