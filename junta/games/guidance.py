"""What the Status page tells a player to do now, written for his positions."""

from __future__ import annotations

from junta.engine import catalog
from junta.engine.state import GameState
from junta.engine.voting import sources


def instructions(state: GameState, seat: int) -> list[str]:
    if state.finished:
        return ["The game is over: everything is revealed below."]
    p = state.players[seat]
    if p.status == "dead":
        return ["You are dead. Prepare your next character (name, avatar, bio): you return "
                "at the next Cabinet Appointment with four new cards. You may still speak on "
                "the Events page."]
    if p.status == "exiled":
        return ["You are in exile: you keep your cards and money but cannot interact. You may "
                "ask the Minister of Internal Security for safe passage home."]
    commands = state.commanded_positions(seat)
    phase = state.phase
    lines: list[str] = []
    if phase == "nomination":
        lines.append("Nominate a player for the Presidency, second a nomination, or decline "
                     "your own nomination.")
    elif phase == "election":
        lines.append("Vote for the next President." if sources(state, seat) else
                     "You have no vote in this election.")
    elif phase == "special_motion":
        lines.append("Vote on the motion to remove the President for incompetence "
                     "(it needs two thirds).")
    elif phase == "cabinet":
        if seat == state.president:
            lines.append("You are El Presidente: appoint the Cabinet. Every living player in "
                         "the country needs a position; at most two each, never two Generals.")
        else:
            lines.append("The President is appointing the Cabinet. Trade, pay and play cards "
                         "as you like; discard down to 6 cards (Influence in play counts).")
    elif phase == "budget_draw":
        if catalog.WAR in commands:
            lines.append("You are the Minister of War: assign New Weapons to a General, the "
                         "Admiral, the Air Force Commander or no one.")
        if catalog.FOREIGN in commands:
            lines.append("You are the Foreign Minister: choose how many bills to draw, 1 to 6.")
        if catalog.FARM_LABOR in commands:
            lines.append("You are the Farm & Labor Secretary: choose how many bills to draw, "
                         "1 to 6.")
        if seat == state.president:
            lines.append("You will draw exactly 2 bills yourself and receive the ministers' "
                         "draws.")
    elif phase == "budget_proposal":
        if seat == state.budget.get("proposer", state.president):
            held = sum(state.budget.get("held", []))
            lines.append(f"Propose the budget: you hold {held} MP in budget bills. Give each "
                         "player a total; what you do not allocate you keep, secretly.")
        else:
            lines.append("The budget is being proposed. Lobby for your share.")
    elif phase == "budget_vote":
        lines.append("Vote on the budget with your positions and Influence; name any Vote "
                     "cards you want counted.")
    elif phase == "internal_security":
        if catalog.INTERNAL_SECURITY in commands:
            lines.append("The budget was defeated. You are the Minister of Internal Security: "
                         "seize the Chamber, or let the budget stay defeated.")
        else:
            lines.append("The budget was defeated: the Minister of Internal Security decides "
                         "whether to seize the Chamber.")
    elif phase == "locations":
        lines.append("Choose your location (Home, HQ, Bank, Club or Mistress, or exile); send "
                     "assassins; bank if you go to the Bank.")
        if catalog.INTERNAL_SECURITY in commands:
            lines.append("Your Secret Police may make one assassination attempt this turn.")
    return lines
