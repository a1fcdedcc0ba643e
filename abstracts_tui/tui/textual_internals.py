"""The few parts of Textual used that are not its public API, in one place (pyproject.toml
bounds Textual's version for them)."""

from __future__ import annotations

from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey


def compose_frame(screen: Screen[object]) -> None:
    """Compose the whole screen as a frame would be (the app's speed bench times it)."""
    screen._compositor.render_update(full=True)


def component_styling(widget: Widget) -> tuple[int, ...]:
    """What tells one styling of `widget`'s component classes from the next: Textual makes
    new component styles whenever it styles the widget again."""
    return tuple(map(id, widget._component_styles.values()))


class SteadyFooter(Footer):
    """Textual's footer, built again only when keys appear that it has not got.

    Textual's footer mounts all its keys afresh whenever the screen's bindings may have
    changed (every focus change, every `refresh_bindings`); over SSH, with dozens of
    screens on one loop, that restyling was most of what a move cost the server. Here a
    key that goes away is hidden, one that comes back is shown again, and a key's text
    or dimming is changed in place (the move line's focus hides the printable keys and
    shows `^z` for `u`, and back): only keys it never had make it build them.
    """

    _shown: tuple[tuple[Binding, bool, str], ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            shown = tuple(
                (binding, enabled, tooltip)
                for _, binding, enabled, tooltip in screen.active_bindings.values()
                if binding.show
            )
            if shown == self._shown:
                return
            self._shown = shown
            if self._bindings_ready and self._update_in_place(shown):
                return
        super().bindings_changed(screen)

    def _update_in_place(self, shown: tuple[tuple[Binding, bool, str], ...]) -> bool:
        """Show, hide and change the keys built before to show `shown` as `compose`
        would build them; False when that cannot be done (a key not built yet, keys in
        another order, a group of keys, the command palette's key)."""
        firsts: dict[str, tuple[Binding, bool, str]] = {}
        for binding, enabled, tooltip in shown:
            if binding.group is not None:
                return False
            firsts.setdefault(binding.action, (binding, enabled, tooltip))
        keys = list(self.children)
        if not all(isinstance(key, FooterKey) for key in keys) or self.query(".-command-palette"):
            return False
        built = iter(key.action for key in keys if isinstance(key, FooterKey))
        if not all(action in built for action in firsts):
            return False  # a key not built, or out of the order built
        for key in keys:
            assert isinstance(key, FooterKey)
            found = firsts.get(key.action)
            if found is None:
                key.display = False
                continue
            binding, enabled, tooltip = found
            key_display = self.app.get_key_display(binding)
            key.display = True
            key.key = binding.key
            key._disabled = not enabled
            key.set_class(not enabled, "-disabled")
            key.tooltip = tooltip or None
            if (key.key_display, key.description) != (key_display, binding.description):
                key.key_display, key.description = key_display, binding.description
                key.refresh(layout=True)
        return True


class SteadyFocusScreen(Screen[None]):
    """A screen whose change of focus repaints the widgets whose style it changes, not
    the whole screen.

    Textual's `Screen.focused` repaints every line of the screen when the focus moves,
    which over SSH sends the whole screen to the client (':' and Enter of a typed move
    each move the focus); the widgets it concerns repaint themselves as their `:focus`
    styles change.
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)


class SteadyInput(Input):
    """An input line whose typing repaints the line without laying the screen out again.

    Textual's input sets its virtual size (the text's width, for scrolling) at every
    character, and that reactive lays the whole screen out; the line's own size never
    changes with its text, and its scrolling reads the virtual size when it scrolls.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
