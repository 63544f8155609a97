"""The bot's coup: stacks moved (now and then split), units placed, strikes and attacks on an
enemy unit, the Foreign Intervention, the police, units handed over, flight, unit and bribe
cards, the side taken; and the units and moves those orders spend."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import catalog
from ..enums import PhaseKind
from ..options import OrderOption
from ..order import Order
from ..order_kinds import coup as kinds
from ..state_shapes import Coup, Unit
from ..units import (
    CARD_UNITS,
    CONTROL_POINTS,
    EMBASSIES,
    PLACED_ON_RIVER,
    RIVER_ZONES,
    coup_of,
    on_map,
    stack_moves,
)
from .core import BotCore, Spends, Spent


def _units(order: Order) -> Spent:
    """The units a hand-over or a Police Response names (read alike)."""
    return Spent(units=tuple(kinds.Transfer.of(order).get("units") or []))


SPENDS: Spends = {
    kinds.Transfer.name: _units,
    kinds.Move.name: lambda order: Spent(units=tuple(kinds.Move.of(order).get("units") or []),
                                         moves=1),
    kinds.PoliceResponse.name: _units,
}


class CoupBot(BotCore):
    def coup(self) -> None:
        """The orders of a coup phase, kind by kind."""
        self.move_stacks()
        self.placements()
        self.strikes()
        self.intervention()
        self.police()
        self.hand_over()
        self.flight()
        self.coup_cards()
        self.side()

    def coup_now(self) -> Coup:
        return coup_of(self.state)

    def mine(self) -> list[Unit]:
        """The bot's units on the map."""
        return [u for u in on_map(self.coup_now()) if u["owner"] == self.seat]

    def enemies(self) -> list[Unit]:
        """The units on the map of the other side, outside the embassies."""
        s, seat = self.state, self.seat
        return [u for u in on_map(self.coup_now()) if u["owner"] is not None
                and u["owner"] != seat and u["zone"] not in EMBASSIES
                and s.players[u["owner"]].rebel != s.players[seat].rebel]

    def move_stacks(self) -> None:
        """Some stacks moved, now and then one split."""
        s, rng, seat = self.state, self.rng, self.seat
        move = self.options.get("move")
        if move is not None:
            stacks = list(self.allowed(move, "from_zone"))
            rng.shuffle(stacks)
            for zone in stacks[:stack_moves(s, seat)]:
                if rng.below(3):
                    values: dict[str, Any] = {"from_zone": zone,
                                              "to_zone": self.one(move, "to_zone",
                                                                  {"from_zone": zone})}
                    units = self.allowed(move, "units", values)
                    if len(units) > 1 and rng.below(6) == 0:  # split the stack
                        values["units"] = [u for u in units if rng.below(2)][:len(units) - 1]
                    if values["to_zone"] is not None:
                        self.use(move, values)

    def placements(self) -> None:
        """Units waiting off the map placed, on a control point (or the river) when offered;
        the more of a kind wait, the likelier."""
        rng, seat = self.rng, self.seat
        waiting: dict[str, int] = {}
        for u in self.coup_now()["units"]:
            if u["owner"] == seat and u["zone"] is None:
                waiting[u["kind"]] = waiting.get(u["kind"], 0) + 1
        for kind, count in sorted(waiting.items()):
            land = self.options.get(f"place:{kind}")
            if land is None or rng.below(1 << min(count, 4)) == 0:
                continue
            where = RIVER_ZONES if kind in PLACED_ON_RIVER else CONTROL_POINTS
            zone = self.one(land, "zone", among=where)
            if zone is None:
                zone = self.one(land, "zone")
            if zone is not None:
                self.use(land, {"zone": zone})

    def strikes(self) -> None:
        """An airstrike, a gunboat and an attack on enemy units, each now and then."""
        rng = self.rng
        enemies = self.enemies()
        if enemies:
            airstrike = self.options.get("airstrike")
            if airstrike is not None and "air_force" in self.allowed(airstrike, "source") and \
                    rng.below(2) == 0:
                self.strike(airstrike, enemies, {"source": "air_force"})
            gunboat = self.options.get("gunboat")
            if gunboat is not None and rng.below(2) == 0:
                self.strike(gunboat, enemies)
            attack = self.options.get("attack")
            if attack is not None and rng.below(3) == 0:
                self.strike(attack, enemies)

    def intervention(self) -> None:
        intervene = self.options.get("intervene")
        if intervene is not None:
            forces = self.allowed(intervene, "forces")
            if forces:
                self.use(intervene, {"forces": [self.rng.choice(forces)]})

    def police(self) -> None:
        police = self.options.get("police_response")
        if police is not None:
            self.use(police, {"zone": self.one(police, "zone")})

    def hand_over(self) -> None:
        """Rarely, a unit handed over to another player."""
        rng = self.rng
        mine = self.mine()
        transfer = self.options.get("transfer")
        if transfer is not None and mine and self.others and rng.below(12) == 0:
            units = self.allowed(transfer, "units", among=[u["id"] for u in mine])
            units = [u for u in units if u not in self.units]
            to = self.one(transfer, "to", among=self.others)
            if units and to is not None:
                self.use(transfer, {"units": [rng.choice(units)], "to": to,
                                    "after_moves": rng.below(2) == 0})

    def flight(self) -> None:
        flee = self.options.get("flee")
        if flee is not None and self.mine() and self.rng.below(40) == 0:
            self.use(flee, {})

    def coup_cards(self) -> None:
        """Unit cards played on the map, bribes on an enemy's zone."""
        s, rng, seat = self.state, self.rng, self.seat
        enemies = self.enemies()
        for cid in s.players[seat].hand:
            name = catalog.card(cid).name
            found = self.card(cid)
            if found is None or not self.free(cid):
                continue
            play, args = found
            if name in CARD_UNITS and rng.below(3) == 0:
                zone = self.one(play, "zone")
                if zone is not None:
                    self.use(play, {**args, "zone": zone})
            elif name.startswith("Bribe the ") and name != "Bribe the Assassin" and \
                    enemies and rng.below(3) == 0:
                zone = self.one(play, "zone", among=[u["zone"] for u in enemies])
                if zone is None:
                    zone = self.one(play, "zone")
                if zone is not None:
                    self.use(play, {**args, "zone": zone})

    def side(self) -> None:
        s, rng, seat = self.state, self.rng, self.seat
        side = self.options.get("coup_side")
        if side is not None:
            choice = "junta" if s.players[seat].rebel and rng.below(5) else "president"
            if rng.below(10) and choice in self.allowed(side, "side"):
                self.use(side, {"side": choice})

    def strike(self, option: OrderOption, enemies: list[Unit],
               fixed: Mapping[str, Any] | None = None) -> None:
        """Strike or attack a random enemy unit: its zone and owner, when both are offered."""
        zones, owners = self.allowed(option, "zone"), self.allowed(option, "target")
        targets = [u for u in enemies if u["zone"] in zones and u["owner"] in owners]
        if targets:
            u = self.rng.choice(targets)
            self.use(option, {**(fixed or {}), "zone": u["zone"], "target": u["owner"]})


PLAYS: Mapping[PhaseKind, tuple[Callable[[CoupBot], None], ...]] = {
    PhaseKind.COUP: (CoupBot.coup,),
    PhaseKind.COUP_FINAL: (CoupBot.coup,),
}
