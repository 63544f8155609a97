"""Incoming fire and inter-troop combat in a coup.

"For each armed unit, one die is rolled. For each unarmed unit, 1/2 die is rolled (round
down). For each Tank, Bodyguard, and Palace Guard (when in the palace) two dice are rolled. For
each 6 that is rolled, one casualty is inflicted upon the enemy. Each unit with New Weapons
inflicts one casualty for each 5 OR 6 that is rolled. Each combat is divided into 3 volleys...
casualties are removed at the end of each volley. Any unit which was in an area before a unit
upon which it is firing is said to have First Fire." "At the end of the three volleys, the
player who has taken the least casualties remains in the area. If more than one player is tied
for the fewest casualties, none of them retreat." "Airstrikes will roll 6 dice, and Gunboat
shelling will roll 3 dice." (docs/rules.md §combat, §first-fire, §retreats)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import catalog
from .state_shapes import Coup, Unit
from .units import dice, has_new_weapons, on_map, side, strength
from .words import Items, Term, Words, Zone, gettext_noop, words

if TYPE_CHECKING:
    from .context import Context

NO_COMBAT = frozenset(z.id for z in catalog.zones().values() if "no_combat" in z.flags)

# Who commands units: a seat, or None for the government's leaderless units.
Owner = int | None
Attacks = dict[tuple[Owner, int], list[Owner]]  # (attacker, zone) -> the owners he attacks
Permissions = dict[tuple[Owner, Owner], bool]  # (occupant, mover) -> may retreat there
RetreatTo = dict[tuple[Owner, int], int]  # (owner, zone) -> where his units retreat


def _who(ctx: Context, owner: int | None) -> str | Term:
    return Term(gettext_noop("the government's leaderless units")) if owner is None else \
        ctx.name(owner)


def remove_casualties(coup: Coup, victims: list[Unit], hits: int) -> list[Unit]:
    """"Casualties are taken by the target's weakest units first (unarmed, then armed, then
    2-dice units), unless the owner ordered another priority" (docs/rules.md §casualties,
    §ruling-targets): the kinds an owner
    names in `coup["casualties_last"]` fall last, the first named the very last."""
    last = {}
    if victims:
        named = coup.get("casualties_last", {}).get(str(victims[0]["owner"]), [])
        last = {kind: len(named) - i for i, kind in enumerate(named)}
    ordered = sorted(victims, key=lambda u: (last.get(u["kind"], 0), strength(u),
                                             -u["entered"], u["id"]))
    dead = ordered[:hits]
    dead_ids = {u["id"] for u in dead}
    coup["units"] = [u for u in coup["units"] if u["id"] not in dead_ids]
    return dead


def bombard(ctx: Context, attacker: int, zone: int, target: int, count: int,
            weapon: Term) -> None:
    coup = ctx.coup
    if zone in NO_COMBAT:
        ctx.public("bombard_refused", words(gettext_noop(
            "{weapon} ordered by {seat} cannot strike {zone}: embassies are no-combat zones."),
            weapon=weapon, seat=ctx.name(attacker), zone=Zone(zone)))
        return
    victims = [u for u in on_map(coup) if u["zone"] == zone and u["owner"] == target]
    rolls = [ctx.rng.die() for _ in range(count)]
    hits = sum(1 for r in rolls if r == 6)
    dead = remove_casualties(coup, victims, hits)
    ctx.public("bombardment", words(
        gettext_noop("{weapon} by {seat} strikes {target}'s units in {zone}: rolls {rolls}; "
                     "{n} unit destroyed.") if len(dead) == 1 else
        gettext_noop("{weapon} by {seat} strikes {target}'s units in {zone}: rolls {rolls}; "
                     "{n} units destroyed."),
        weapon=weapon, seat=ctx.name(attacker), target=_who(ctx, target), zone=Zone(zone),
        rolls=Items(tuple(rolls)), n=len(dead)), zone=zone, rolls=rolls, destroyed=len(dead))


def _enemies(ctx: Context, zone: int, owners: list[Owner], attacks: Attacks
             ) -> dict[Owner, list[Owner]]:
    """Who fights whom in a zone: opposite sides, or an ordered attack either way.
    (docs/rules.md §combat)."""
    s = ctx.state
    out: dict[Owner, list[Owner]] = {o: [] for o in owners}
    for a in owners:
        for b in owners:
            if a == b:
                continue
            ordered = b in attacks.get((a, zone), []) or a in attacks.get((b, zone), [])
            if side(s, a) != side(s, b) or ordered:
                out[a].append(b)
    return out


def roll_hits(ctx: Context, shooters: list[Unit], zone: int) -> tuple[int, list[int]]:
    """Hits scored by a group of units firing together, and every die rolled: one die per
    armed unit (two for a Tank, the Bodyguard, a Palace Guard in the Palace), floor(n/2) for n
    unarmed units; a 6 hits, or a 5 or 6 with New Weapons."""
    hits = 0
    rolls = []
    unarmed = [u for u in shooters if not u["armed"]]
    for u in shooters:
        if not u["armed"]:
            continue
        need = 5 if has_new_weapons(ctx.state, u) else 6
        for _ in range(dice(u, zone)):
            r = ctx.rng.die()
            rolls.append(r)
            hits += r >= need
    for _ in range(len(unarmed) // 2):
        r = ctx.rng.die()
        rolls.append(r)
        hits += r == 6
    return hits, rolls


def _fire(ctx: Context, shooters: list[Unit], zone: int, owner: int | None,
          enemy: int | None, lines: list[Words], first: bool = False) -> int:
    hits, rolls = roll_hits(ctx, shooters, zone)
    if rolls:
        msgid = ((gettext_noop("First Fire: {seat} fires at {enemy}: {rolls} ({n} hit)")
                  if first else gettext_noop("{seat} fires at {enemy}: {rolls} ({n} hit)"))
                 if hits == 1 else
                 (gettext_noop("First Fire: {seat} fires at {enemy}: {rolls} ({n} hits)")
                  if first else gettext_noop("{seat} fires at {enemy}: {rolls} ({n} hits)")))
        lines.append(words(msgid, seat=_who(ctx, owner), enemy=_who(ctx, enemy),
                           rolls=Items(tuple(rolls)), n=hits))
    return hits


def _targets(units: list[Unit], enemies: list[Owner], ordered: list[Owner]
             ) -> dict[Owner, list[Unit]]:
    """Which enemy each unit fires at: the owner's ordered target, else the enemies in turn.
    Unarmed units stay together ("n unarmed units together roll floor(n/2) dice")."""
    chosen = [e for e in ordered if e in enemies] or enemies
    plan: dict[Owner, list[Unit]] = {e: [] for e in chosen}
    armed = [u for u in sorted(units, key=lambda u: u["id"]) if u["armed"]]
    for i, u in enumerate(armed):
        plan[chosen[i % len(chosen)]].append(u)
    plan[chosen[0]] += [u for u in units if not u["armed"]]
    return plan


def battles(ctx: Context, phase_no: int, attacks: Attacks, permissions: Permissions,
            retreat_to: RetreatTo) -> None:
    """Every zone where enemies meet fights three volleys, then the losers retreat.
    (docs/rules.md §combat, §first-fire, §retreats)."""
    coup = ctx.coup
    # the units of each zone that have not retreated this phase: a zone's battle changes no
    # other zone's but by the units retreating into it, which do not fight there again
    by_zone: dict[int, list[Unit]] = {}
    for u in coup["units"]:
        zone = u["zone"]
        if zone is not None and u.get("retreated") != phase_no:  # on the map
            by_zone.setdefault(zone, []).append(u)
    for zone in sorted(by_zone):
        if zone in NO_COMBAT:
            continue
        present = by_zone[zone]
        owners = sorted({u["owner"] for u in present}, key=lambda o: -1 if o is None else o)
        enemies = _enemies(ctx, zone, owners, attacks)
        fighters = [o for o in owners if enemies[o]]
        if len(fighters) < 2:
            continue
        casualties = {o: 0 for o in fighters}
        lines: list[Words] = []
        for volley in (1, 2, 3):
            # the zone's units (those retreated into it this phase too: they take hits), and
            # those of them that fight; read again after casualties are removed
            in_zone = [u for u in coup["units"] if u["zone"] == zone]
            standing = [u for u in in_zone if u.get("retreated") != phase_no]
            here = {o: [u for u in standing if u["owner"] == o] for o in fighters}
            live = [o for o in fighters if here[o]]
            if len([o for o in live if any(e in live for e in enemies[o])]) < 2:
                break
            fired: set[int] = set()
            if volley == 1:  # First Fire: the established shoot the newcomers first
                first_hits: dict[Owner, int] = {}
                for o in live:
                    old = [u for u in here[o] if u["entered"] < phase_no]
                    targets = [e for e in enemies[o] if e in live and any(
                        u["entered"] == phase_no for u in here[e])]
                    if not old or not targets:
                        continue
                    ordered = attacks.get((o, zone), [])
                    for enemy, group in _targets(old, targets, ordered).items():
                        if group:
                            first_hits[enemy] = first_hits.get(enemy, 0) + _fire(
                                ctx, group, zone, o, enemy, lines, first=True)
                            fired.update(u["id"] for u in group)
                for enemy, hits in sorted(first_hits.items(), key=lambda kv: str(kv[0])):
                    new = [u for u in in_zone if u["owner"] == enemy
                           and u["entered"] == phase_no]
                    dead = remove_casualties(coup, new, hits)
                    casualties[enemy] += len(dead)
                    lines.append(words(gettext_noop("{seat} loses {n} before firing back"),
                                       seat=_who(ctx, enemy), n=len(dead)))
                if first_hits:
                    in_zone = [u for u in coup["units"] if u["zone"] == zone]
                    standing = [u for u in in_zone if u.get("retreated") != phase_no]
            hits_on: dict[Owner, int] = {}
            for o in live:
                units = [u for u in standing if u["owner"] == o and u["id"] not in fired]
                foes = [e for e in enemies[o] if e in live]
                if not units or not foes:
                    continue
                ordered = attacks.get((o, zone), [])
                for enemy, group in _targets(units, foes, ordered).items():
                    hits_on[enemy] = hits_on.get(enemy, 0) + _fire(ctx, group, zone, o,
                                                                     enemy, lines)
            for enemy, hits in sorted(hits_on.items(), key=lambda kv: str(kv[0])):
                victims = [u for u in in_zone if u["owner"] == enemy]
                dead = remove_casualties(coup, victims, hits)
                casualties[enemy] += len(dead)
                if dead:
                    lines.append(words(gettext_noop("volley {volley}: {seat} loses {n}"),
                                       volley=volley, seat=_who(ctx, enemy), n=len(dead)))

        fewest = min(casualties.values())
        summary = Items(tuple(words(gettext_noop("{seat} {n}"), seat=_who(ctx, o), n=n)
                              for o, n in casualties.items()))
        ctx.public("combat", words(gettext_noop("Battle in {zone}: {lines}. Casualties: "
                                                "{summary}."),
                                   zone=Zone(zone), summary=summary,
                                   lines=Items(tuple(lines), Term(gettext_noop("no hits")),
                                               "; ")), zone=zone, casualties={str(k): v for k, v in
                                                           casualties.items()})
        for o in fighters:
            if casualties[o] > fewest:
                retreat(ctx, o, zone, phase_no, permissions, retreat_to)


def allows(ctx: Context, occupant: Owner, mover: Owner, permissions: Permissions) -> bool:
    """"Unless otherwise specified, Rebels will deny permission to retreat to Loyalists and
    vice versa." An explicit allow or deny order wins (docs/rules.md §retreats)."""
    explicit = permissions.get((occupant, mover))
    if explicit is not None:
        return explicit
    return side(ctx.state, occupant) == side(ctx.state, mover)


def retreat(ctx: Context, owner: Owner, zone: int, phase_no: int, permissions: Permissions,
            retreat_to: RetreatTo) -> None:
    coup = ctx.coup
    units = [u for u in on_map(coup) if u["zone"] == zone and u["owner"] == owner]
    if not units:
        return
    adjacent = catalog.zones()[zone].adjacent

    def open_to(z: int) -> bool:
        occupants = {u["owner"] for u in on_map(coup) if u["zone"] == z} - {owner}
        return all(allows(ctx, o, owner, permissions) for o in occupants)

    wish = retreat_to.get((owner, zone))
    origin = next((u["from_zone"] for u in units if u["from_zone"] not in (None, zone)), None)
    candidates = [z for z in (wish, origin) if z in adjacent] + sorted(adjacent)
    dest = next((z for z in candidates if open_to(z)), None)
    if dest is None:
        ids = {u["id"] for u in units}
        coup["units"] = [u for u in coup["units"] if u["id"] not in ids]
        ctx.public("destroyed", words(gettext_noop(
            "{seat}'s {n} units in {zone} find nowhere to retreat and are destroyed."),
            seat=_who(ctx, owner), n=len(units), zone=Zone(zone)), zone=zone)
        return
    for u in units:
        u["zone"] = dest
        u["retreated"] = phase_no
    ctx.public("retreat", words(gettext_noop("{seat}'s units retreat from {zone} to {to}."),
                               seat=_who(ctx, owner), zone=Zone(zone), to=Zone(dest)),
               zone=zone, to=dest)
