"""What the Status and Orders pages tell a player to do now, written for his positions.

The lines name what the player may order now as `options.legal_options` lists it (the same
list the Orders page, the bots and the API read), with the rules' reasons around it. Each line
names the section of the players' rules reference (`docs/rules.md`) that it explains, and the
pages link it there: `instruction_lines` gives both, `instructions` the text alone.
"""

from __future__ import annotations

from typing import NamedTuple

from . import catalog
from .enums import PhaseKind, Status
from .flow import country_empty, ends_at_this_deadline
from .labels import FORCE_NAMES, count_units, coup_units, moves_reason, zone_name
from .options import Options, legal_options
from .order_kinds.coup import AIRSTRIKES
from .state import GameState, Player
from .units import BARRACKS, CONTROL_POINTS, EMBASSIES

# One wording for the Status page, the Orders page and the character page: the family comes
# back when the next turn begins, which is its Cabinet Appointment (docs/rules.md §death).
DEAD = ("You are dead: the dead give no orders. Your family returns to public life at the start "
        "of the next turn, in time for its Cabinet Appointment, with a new character and four "
        "new cards. Prepare that character now (name, avatar, bio). You may still speak on the "
        "Events page.")


class Instruction(NamedTuple):
    """One line of instructions and the id of the section of `docs/rules.md` it explains."""
    text: str
    section: str


def _empty_country(state: GameState) -> list[Instruction]:
    """What an exile reads when nobody is left in the country: he may come home, and when the
    game ends if no exile does (docs/rulings.md §ruling-empty-country)."""
    if not country_empty(state):
        return []
    when = "by this phase's deadline" if ends_at_this_deadline(state) else \
        "before the next budget is due"
    home = "after the coup" if state.phase in (PhaseKind.COUP, PhaseKind.COUP_FINAL) else "now"
    return [Instruction(
        "Nobody is left in the country: no President can be elected, and with no Minister of "
        f"Internal Security to decide, an exile who asks to return {home} comes home safely. "
        f"If no exile asks {when}, the game ends and the family with the most money in the "
        "Bank wins.", "empty-country")]


def instructions(state: GameState, seat: int, options: Options | None = None) -> list[str]:
    """The lines for `seat` (`options`: his legal options, when the caller has them)."""
    return [line.text for line in instruction_lines(state, seat, options)]


def instruction_lines(state: GameState, seat: int,
                      options: Options | None = None) -> list[Instruction]:
    """The lines for `seat`, each with the rules section it explains (`docs/rules.md §...`)."""
    if state.finished:
        return [Instruction("The game is over: everything is revealed below.", "end")]
    p = state.players[seat]
    if p.status == Status.DEAD:
        return [Instruction(DEAD, "death")]
    if p.status == Status.EXILED:
        return [Instruction("You are in exile: you keep your cards and money but cannot "
                            "interact. You may ask the Minister of Internal Security for safe "
                            "passage home.", "exile"), *_empty_country(state)]
    options = options or legal_options(state, seat)
    kinds = options.kinds
    phase = state.phase
    lines: list[Instruction] = []
    if phase == PhaseKind.NOMINATION:
        lines.append(Instruction("Nominate a player for the Presidency, second a nomination, or "
                                 "decline your own nomination.", "first-election"))
    elif phase == PhaseKind.ELECTION:
        first = state.election is not None and state.election["reason"] == "initial"
        lines.append(Instruction(
            "Vote for the next President." if "vote" in kinds else
            "You have no vote in this election.",
            "first-election" if first else "elections"))
    elif phase == PhaseKind.SPECIAL_MOTION:
        lines.append(Instruction("Vote on the motion to remove the President for incompetence "
                                 "(it needs two thirds).", "competence"))
    elif phase == PhaseKind.CABINET:
        if "appoint" in kinds:
            lines.append(Instruction(
                "You are El Presidente: appoint the Cabinet. Every living player in the country "
                "needs a position; at most two each, never two Generals.", "appointment"))
        else:
            lines.append(Instruction(
                "The President is appointing the Cabinet. Trade, pay and play cards as you "
                "like; discard down to 6 cards (Influence in play counts).", "hand-limit"))
    elif phase == PhaseKind.BUDGET_DRAW:
        if "new_weapons" in kinds:
            lines.append(Instruction(
                "You are the Minister of War: assign New Weapons to a General, the Admiral, the "
                "Air Force Commander or no one.", "new-weapons"))
        draws = {c.value for o in options.of_kind("draw_bills") for c in o.args[0].choices}
        if catalog.FOREIGN in draws:
            lines.append(Instruction("You are the Foreign Minister: choose how many bills to "
                                     "draw, 1 to 6.", "draws"))
        if catalog.FARM_LABOR in draws:
            lines.append(Instruction("You are the Farm & Labor Secretary: choose how many bills "
                                     "to draw, 1 to 6.", "draws"))
        if seat == state.president:
            lines.append(Instruction("You will draw exactly 2 bills yourself and receive the "
                                     "ministers' draws.", "draws"))
    elif phase == PhaseKind.BUDGET_PROPOSAL:
        if "propose_budget" in kinds:
            held = sum(state.budget.get("held", []))
            lines.append(Instruction(
                f"Propose the budget: you hold {held} MP in budget bills. Give each player a "
                "total; what you do not allocate you keep, secretly.", "budget-proposal"))
        else:
            lines.append(Instruction("The budget is being proposed. Lobby for your share.",
                                     "budget-proposal"))
    elif phase == PhaseKind.BUDGET_VOTE:
        lines.append(Instruction("Vote on the budget with your positions and Influence; name "
                                 "any Vote cards you want counted.", "votes"))
    elif phase == PhaseKind.INTERNAL_SECURITY:
        if "seize_chamber" in kinds:
            lines.append(Instruction(
                "The budget was defeated. You are the Minister of Internal Security: seize the "
                "Chamber, or let the budget stay defeated.", "seize"))
        else:
            lines.append(Instruction(
                "The budget was defeated: the Minister of Internal Security decides whether to "
                "seize the Chamber.", "seize"))
    elif phase == PhaseKind.LOCATIONS:
        lines.append(Instruction(
            "Choose your location (Home, HQ, Bank, Club or Mistress, or exile); send assassins; "
            "bank if you go to the Bank.", "location"))
        if any(c.value == "secret_police" for o in options.of_kind("assassinate")
               for c in o.args[0].choices):
            lines.append(Instruction("Your Secret Police may make one assassination attempt "
                                     "this turn.", "internal-security"))
        lines += _rebel_only(state, seat, options)
    elif phase in (PhaseKind.COUP, PhaseKind.COUP_FINAL):
        lines += _coup_phase(state, seat)
    elif phase == PhaseKind.AFTERMATH:
        lines += _aftermath(state, seat)
    return lines


def _rebel_only(state: GameState, seat: int, options: Options) -> list[Instruction]:
    if seat == state.president:
        return [Instruction("As President you cannot take Rebel action; watch the Rebel-Only "
                            "step.", "rebel-only")]
    keys = {o.key for o in options.orders}
    unit_cards = [o.label.removeprefix("Play ") for o in options.of_kind("play_card")
                  if o.key.startswith("play_card:") and "zone" in {a.name for a in o.args}]
    excuse = "There is a Coup Excuse" if state.coup_excuse else \
        "There is no Coup Excuse yet, so only from HQ (or with a card that gives one)"
    actions = []
    if any(u["owner"] == seat and u["zone"] is not None for u in coup_units(state)):
        actions.append(f"move {moves_reason(state, seat)} one zone")
    if "place:Paratrooper" in keys:
        actions.append("order an Airstrike or land your Paratrooper")
    if "place:Marine" in keys:
        actions.append("shell with the Gunboat or land your Marine")
    if unit_cards:
        actions.append("play " + ", ".join(unit_cards))
    if not actions:
        return []
    return [Instruction(f"Rebel-Only step: you may start a coup: {'; '.join(actions)}. "
                        f"{excuse}. Any such action makes you a Rebel for good.", "rebel-only")]


def _coup_phase(state: GameState, seat: int) -> list[Instruction]:
    coup = state.coup
    assert coup is not None  # the coup phases have their map
    n = coup["phase"]
    commands = state.commanded_positions(seat)
    mine = [u for u in coup_units(state) if u["owner"] == seat]
    waiting = [u for u in mine if u["zone"] is None]
    lines: list[Instruction] = []
    if len(waiting) < len(mine):
        lines.append(Instruction(
            f"Coup Phase {n}: you may move {moves_reason(state, seat)}; hand units over to "
            "other players; order attacks, retreats and retreat permissions.", "movement"))
    elif mine:
        lines.append(Instruction(
            f"Coup Phase {n}: land your units, hand them over to other players, and order "
            "attacks, retreats and retreat permissions.", "placement"))
    else:
        lines.append(Instruction(f"Coup Phase {n}: you command no units. You may still pay, "
                                 "trade and play cards.", "any-time"))
    if waiting:
        lines.append(Instruction(f"Waiting to land: {count_units(waiting)}.", "placement"))
    if catalog.AIR_FORCE in commands:
        left = AIRSTRIKES - coup["airstrikes_used"]
        lines.append(Instruction(
            f"Air Force Commander: {left} of {AIRSTRIKES} Airstrikes left, one per phase "
            f"({7 - n} phase{'s' if n != 6 else ''} to go, this one included).", "air-force"))
    if catalog.ADMIRAL in commands:
        lines.append(Instruction("Admiral: the Gunboat may shell one player's units in one zone "
                                 "once this phase (3 dice).", "admiral"))
    if catalog.FOREIGN in commands:
        foreign = coup["foreign"]
        chosen = ", ".join(FORCE_NAMES[f] for f in foreign["chosen"]) or "none yet"
        left = foreign["allowed"] - len(foreign["chosen"])
        lines.append(Instruction(
            f"Foreign Minister: the die showed {foreign['roll']}, allowing "
            f"{foreign['allowed']} Foreign Intervention force"
            f"{'s' if foreign['allowed'] != 1 else ''}; chosen: {chosen}; "
            f"{left} more to choose.", "foreign-intervention"))
    if catalog.INTERNAL_SECURITY in commands and n == 1 and state.phase == PhaseKind.COUP and \
            coup.get("agitator_zones"):
        zones = ", ".join(zone_name(z) for z in coup["agitator_zones"])
        lines.append(Instruction(
            f"Minister of Internal Security: Police Response: you may rush any or all Police "
            f"to {zones}, where agitators were deployed. It does not count as your stack move.",
            "police-response"))
    in_barracks = [u for u in mine if (barracks := BARRACKS.get(u["position"] or "")) is not None
                   and u["zone"] == barracks]
    hint = {3: "the last phase a brigade can leave its barracks and still reach the farthest "
               "control points or the Palace",
            4: "the last phase a brigade can leave its barracks and still reach the two "
               "closest control points",
            5: "a brigade still in its barracks can no longer reach any control point"}.get(n)
    if in_barracks and hint:
        lines.append(Instruction(f"Your troops are in their barracks: this is {hint}." if n < 5
                                 else f"Your troops are in their barracks: {hint}.", "movement"))
    if state.phase == PhaseKind.COUP_FINAL:
        lines.append(Instruction(
            "This is the last phase. Vote Pro-Junta or Pro-President"
            + (" (as President, only Pro-President)" if seat == state.president else "")
            + ". The side holding 3 of the 5 control points wins; a point counts Pro-Junta only "
            "if every unit in it belongs to a Pro-Junta voter; empty or shared points count "
            "Pro-President. No vote abstains.", "control"))
        held = []
        for zone in CONTROL_POINTS:
            there = [u for u in coup["units"] if u["zone"] == zone]
            owners = sorted({state.name(u["owner"]) if u["owner"] is not None else
                             "leaderless units" for u in there})
            held.append(f"{zone_name(zone)}: {', '.join(owners) or 'empty'}")
        lines.append(Instruction("The control points now: " + "; ".join(held) + ".", "control"))
    if any(u["zone"] is not None for u in mine):
        lines.append(Instruction(
            "You may flee the country if one of your units stands in an embassy ("
            + " or ".join(zone_name(z) for z in EMBASSIES) + ") after the moves.", "embassies"))
    return lines


def _aftermath(state: GameState, seat: int) -> list[Instruction]:
    result = state.coup["result"] if state.coup else None
    p = state.players[seat]
    lines: list[Instruction] = []
    if result == "president":
        if seat == state.president:
            lines.append(Instruction(
                "You won the coup: you may send one Rebel to the firing squad and take his "
                "pocket money (Loyalists are immune). No order: you benevolently execute no one.",
                "firing-squad"))
        elif p.rebel:
            lines.append(Instruction("The coup failed. The President may send one Rebel to the "
                                     "firing squad, and you are a Rebel.", "firing-squad"))
        else:
            lines.append(Instruction("The coup failed. Loyalists like you are immune from the "
                                     "President's firing squad.", "firing-squad"))
    elif result == "junta":
        if p.rebel:
            first = state.first_rebel
            tie = "" if first is None else \
                f" The First Rebel, {state.name(first)}, breaks ties." \
                if state.players[first].active else \
                f" The First Rebel, {state.name(first)}, is not in the country: the lot breaks " \
                "ties."
            lines.append(Instruction(
                "The coup succeeded and you sit in the Junta: vote for the next President, any "
                "living player, the sitting President included." + tie, "junta"))
        elif any(x.active and x.rebel for x in state.players):
            lines.append(Instruction("The coup succeeded: the Junta (the Rebels) elects the next "
                                     "President.", "junta"))
        else:
            lines.append(Instruction("The coup succeeded but no Rebel is left in the country to "
                                     "form the Junta: the President falls and the Chamber "
                                     "elects his successor when the Aftermath is over; nobody "
                                     "is executed.", "junta"))
            return _after_lunch(state, p, lines)
        lines.append(Instruction(
            "Everyone orders an execution \u201cshould you be elected\u201d: a newly elected "
            "President may execute ANY one player. It counts only if you are elected.", "junta"))
    return _after_lunch(state, p, lines)


def _after_lunch(state: GameState, p: Player, lines: list[Instruction]
                 ) -> list[Instruction]:
    if state.turn_flags.get("bank_after_lunch") and p.location == "bank":
        lines.append(Instruction(
            "The Bank reopens after lunch: you chose the Bank, so you may deposit or withdraw; it "
            "is carried out after the execution.", "after-lunch"))
    return lines
