"""Player-facing words for the controller's actions: names instead of ids, verbs spelled out.

Only presentation: which actions exist and when they are legal is the
controller's business; this module turns ``fire p1 at e1:3`` into
"Sgt. Mace fires at Viper boss (3 dice)".
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from crdesk.game import Action, Decision, Game
from crdesk.game.actions import (
    Activate,
    CarryOn,
    ChangeFloor,
    Charge,
    CheatDeath,
    Drop,
    DuckBack,
    End,
    Exit,
    FastMove,
    Fire,
    FreeWill,
    Indirect,
    Move,
    NpMove,
    Pass,
    Pickup,
    Prone,
    Ready,
    Reload,
    Roll,
    Stand,
    StarPower,
    Throw,
    fmt_num,
)

Names = Callable[[str], str]

TIP_WIDTH = 360
"""Width, in pixels, of a long tooltip's paragraph."""
TIP_LINE = 60
"""Characters a tooltip line may have and still be shown as it is."""


def tip_paragraph(*lines: str, title: str = "", width: int = TIP_WIDTH) -> str:
    """A tooltip of ``lines`` (and a bold ``title`` first): as plain lines when they are
    short, else a paragraph ``width`` pixels wide, each line its own, wrapped.

    A plain tooltip is one line per line of its text whatever its length: a sentence
    of the controller's was a line 970 pixels long.  Rich text in a table of a fixed
    width is wrapped by Qt at that width.
    """
    if all(len(line) <= TIP_LINE for line in (title, *lines)):
        return "\n".join(line for line in (title, *lines) if line)
    body = [f"<b>{escape(title)}</b>"] if title else []
    body += [escape(line) for line in lines if line]
    return f'<table width="{width}"><tr><td>{"<br>".join(body)}</td></tr></table>'


FIGURE_VERBS: dict[type[Action], tuple[str, str]] = {
    Prone: ("Go prone", "Prone"),
    Stand: ("Stand up", "Stand"),
    Reload: ("Reload", "Reload"),
    Ready: ("Ready a grenade", "Grenade"),
    Drop: ("Put down the wounded", "Drop"),
    Exit: ("Leave the table", "Exit"),
}
"""One-figure actions, in full and as a short button on the figure's row ("Sgt. Mace: Prone")."""


def figure_names(game: Game) -> Names:
    """Figure id to name, for the game's battlefield (unknown ids stay as they are)."""
    names = {f.id: f.name or f.id for f in game.battlefield.figures()}
    return lambda fid: names.get(fid, fid)


def _list(ids: tuple[str, ...], name: Names) -> str:
    named = [name(i) for i in ids]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def option_label(option: Action, name: Names) -> str:
    """A button's text for an option of the awaited decision."""
    match option:
        case Activate(leader=leader):
            return f"Activate {name(leader)}'s group"
        case End():
            return "End the activation"
        case Pass():
            return "Pass"
        case Roll():
            return "Roll the dice"
        case FastMove(figures=figures):
            named = _list(figures, name) if len(figures) <= 2 else f"{len(figures)} figures"
            return f"Fast Move: {named}"
        case Fire(figure=figure, targets=targets):
            aims = ", ".join(f"{name(t)} ({n} {'die' if n == 1 else 'dice'})" for t, n in targets)
            return f"{name(figure)} fires at {aims}"
        case Charge(target=target) as charge:
            verb = "charge" if charge.others else "charges"
            return f"{_list(charge.chargers, name)} {verb} {name(target)}"
        case Throw(figure=figure, point=point):
            return f"{name(figure)} throws a grenade at {fmt_num(point[0])},{fmt_num(point[1])}"
        case Pickup(figure=figure, wounded=wounded):
            return f"{name(figure)} picks up {name(wounded)}"
        case ChangeFloor(figure=figure, floor=floor):
            return f"{name(figure)} goes to floor {floor}"
        case FreeWill(figure=figure, passes=passes):
            return f"{name(figure)}: Free Will, pass {passes}d6"
        case StarPower(figure=figure, use=use):
            return f"{name(figure)}: {'use' if use else 'decline'} Star Power"
        case CheatDeath(figure=figure, cheat=cheat):
            return f"{name(figure)}: {'cheat death' if cheat else 'do not cheat death'}"
        case DuckBack(figure=figure, carry=str(wounded)):
            return f"{name(figure)} ducks back carrying {name(wounded)}"
        case DuckBack(figure=figure, point=None):
            return f"{name(figure)} ducks back to the nearest Cover"
        case DuckBack(figure=figure, point=(x, y)):
            return f"{name(figure)} ducks back to {fmt_num(x)},{fmt_num(y)}"
        case CarryOn(figure=figure):
            return f"{name(figure)} carries on"
        case Ready(figure=figure, weapon=True):
            return f'{name(figure)}: Ready the weapon (2" of movement)'
        case Indirect(figure=figure, point=point):
            return f"{name(figure)} fires indirectly at {fmt_num(point[0])},{fmt_num(point[1])}"
        case Move(figure=figure, path=path):
            x, y = path[-1]
            return f"Move {name(figure)} to {fmt_num(x)},{fmt_num(y)}"
        case NpMove(figure=figure):  # a person playing the non-player side (hot-seat)
            return f"Roll NP Force Movement for {name(figure)}'s group (11.4)"
    verbs = FIGURE_VERBS.get(type(option))
    who = option.who
    if verbs is not None and who is not None:
        return f"{name(who)}: {verbs[0]}"
    words = str(option).split()
    words = [name(w) for w in words]
    return " ".join(words).capitalize() if words else str(option)


def row_verb(option: Action) -> str | None:
    """The short button text of a one-figure action shown on its figure's row, or None."""
    if isinstance(option, Ready) and option.weapon:
        return "Ready weapon"
    verbs = FIGURE_VERBS.get(type(option))
    return verbs[1] if verbs is not None and option.who is not None else None


def default_option(game: Game, decision: Decision) -> Action | None:
    """The option the Enter key plays: the controller's :attr:`Decision.default` (the
    book's automatic choice) when it is one of the options, else the first."""
    del game
    if not decision.options:
        return None
    return decision.default if decision.default in decision.options else decision.options[0]
