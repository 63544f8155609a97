#!/usr/bin/env python3
"""A bot that plays one seat of a Junta campaign through the JSON API alone (/api/v1/).

It knows nothing of the rules and reads nothing but what the API answers its token: each phase
it reads the orders the engine lets its seat give now (GET /campaigns/{id}/options), picks some
of them and fills their arguments among the values each one lists (a value narrowed by another
argument, `depends_on`, is taken from `choices_for`; arguments legal only in combination, such
as a Cabinet or a budget, keep the defaults the site offers), and sends them, final
(PUT /campaigns/{id}/orders). The site validates the set as it does a player's: the orders it
names in a refusal are dropped and the rest sent again, the way the engine's own bots trim a set
(`whole_set`). A stale state version (409) means the phase moved on: it reads again.

Standard library only, so that it runs anywhere with Python 3.12:

    python scripts/junta_bot.py --url http://127.0.0.1:8000/api/v1 --token TOKEN --campaign 1

plays until the campaign ends, looking every `--every` seconds (make a token on the site's
/api/tokens/ page). `--once` plays the current phase and stops.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

# method, path (below the API's base), JSON body -> (HTTP status, JSON answer)
Transport = Callable[[str, str, Any], tuple[int, Any]]

MAX_TRIES = 6  # sets sent before the bot gives up on a phase and sends no orders, final
USE = 0.4  # how often the bot uses each option it is offered


def http(base: str, token: str, timeout: float = 30) -> Transport:
    """A transport over HTTP with the token, as any client of the API."""
    def call(method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            base.rstrip("/") + path, data=data, method=method,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json",
                     **({"Content-Type": "application/json"} if data else {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                return error.code, json.loads(text or b"null")
            except ValueError:
                return error.code, {"detail": text.decode(errors="replace")}
    return call


class Bot:
    """One seat's player: `turn()` plays the current phase if it waits for this seat."""

    def __init__(self, call: Transport, campaign: int, seed: str = "bot") -> None:
        self.call = call
        self.campaign = campaign
        self.rng = random.Random(seed)
        self.log: list[str] = []

    # --- what the API says ---------------------------------------------------------------

    def _get(self, path: str) -> Any:
        status, body = self.call("GET", path, None)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body}")
        return body

    def mine(self) -> dict[str, Any] | None:
        """This campaign as GET /campaigns lists it for me."""
        return next((c for c in self._get("/campaigns") if c["id"] == self.campaign), None)

    def finished(self) -> bool:
        me = self.mine()
        return me is None or me["status"] == "finished"

    # --- a phase -------------------------------------------------------------------------

    def turn(self) -> str:
        """Play the current phase if it waits for my orders: what the bot did, in words."""
        base = f"/campaigns/{self.campaign}"
        for _attempt in range(3):  # a phase that moves on meanwhile (409): read it again
            status, options = self.call("GET", f"{base}/options", None)
            if status == 404:
                return f"nothing to play: {(options or {}).get('detail')}"
            if status != 200:
                raise RuntimeError(f"GET options: {status} {options}")
            if not options["open"]:
                return f"closed: {options['barred'] or 'the phase takes no orders now'}"
            back = [o for o in options["orders"] if o["kind"] == "return_from_exile"]
            if options["final"] or not options["owes_orders"] and not back:
                return "nothing to do"
            # an exile owes no orders, but asks to come home (else a table all in exile
            # would wait for ever)
            orders = self.choose(options["orders"]) if options["owes_orders"] else [
                {"option": back[0]["key"], "values": self.fill(back[0])}]
            for _try in range(MAX_TRIES):
                status, body = self.call("PUT", f"{base}/orders", {
                    "orders": orders, "state_version": options["state_version"],
                    "final": True})
                if status == 200:
                    self.log.append(f"phase {options['phase']['number']}: {len(orders)} orders")
                    return f"sent {len(orders)} orders, final"
                if status == 409:
                    break
                named = self._named(body)
                if status != 400 or not orders:
                    raise RuntimeError(f"PUT orders: {status} {body}")
                # drop the orders the site names (the last one when it names none)
                orders = [o for i, o in enumerate(orders) if i not in named] if named \
                    else orders[:-1]
            else:
                status, body = self.call("PUT", f"{base}/orders", {
                    "orders": [], "state_version": options["state_version"], "final": True})
                if status == 200:
                    return "gave up choosing: no orders, final (the defaults apply)"
                if status != 409:
                    raise RuntimeError(f"PUT orders: {status} {body}")
        return "the phase kept changing"

    @staticmethod
    def _named(body: Any) -> set[int]:
        """The orders a refusal names: `orders[2].amount` is the third."""
        issues = (body or {}).get("errors") or [body or {}]
        named = set()
        for issue in issues:
            field = (issue or {}).get("field") or ""
            if field.startswith("orders[") and "]" in field:
                index = field[len("orders["):field.index("]")]
                if index.isdigit():
                    named.add(int(index))
        return named

    # --- choosing ----------------------------------------------------------------------

    def choose(self, offered: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Some of the options, each once, filled in among the values it lists."""
        out = []
        for option in offered:
            if self.rng.random() > USE:
                continue
            out.append({"option": option["key"], "values": self.fill(option)})
        return out

    def fill(self, option: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = dict(option.get("defaults") or {})
        for arg in option["args"]:
            if arg["combined"] or arg["shape"] == "table":
                continue  # a Cabinet, a budget: the site's own starting values
            values[arg["name"]] = self._value(arg, values)
        return values

    def _value(self, arg: dict[str, Any], chosen: dict[str, Any]) -> Any:
        allowed = [c["value"] for c in arg["choices"]]
        if arg["depends_on"]:
            narrowed = next((row["values"] for row in arg["choices_for"]
                             if row["when"] == chosen.get(arg["depends_on"])), [])
            allowed = [v for v in allowed if v in narrowed]
        shape = arg["shape"]
        if shape == "one":
            if not allowed or (arg["blank"] is not None and not arg["required"]
                               and self.rng.random() < 0.3):
                return None
            return self.rng.choice(allowed)
        if shape == "some":
            return [v for v in allowed if self.rng.random() < 0.5]
        if shape == "number":
            low = arg["minimum"] if arg["minimum"] is not None else 0
            high = arg["maximum"] if arg["maximum"] is not None else low
            return self.rng.randint(low, max(low, min(high, low + 5)))
        if shape == "ranking":
            picked = list(allowed)
            self.rng.shuffle(picked)
            return picked[:max(1, arg["maximum"] or 1)]
        return arg["default"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the API's base, e.g. "
                        "http://127.0.0.1:8000/api/v1")
    parser.add_argument("--token", required=True, help="a personal API token (/api/tokens/)")
    parser.add_argument("--campaign", type=int, required=True, help="the campaign's id")
    parser.add_argument("--every", type=float, default=60, help="seconds between looks")
    parser.add_argument("--seed", default="bot", help="the bot's random seed")
    parser.add_argument("--once", action="store_true", help="play the current phase, stop")
    args = parser.parse_args(argv)
    bot = Bot(http(args.url, args.token), args.campaign, args.seed)
    while True:
        try:
            print(bot.turn(), flush=True)
            if args.once or bot.finished():
                return 0
        except (RuntimeError, OSError) as error:  # the site away, a refusal: try again later
            print(f"error: {error}", file=sys.stderr, flush=True)
            if args.once:
                return 1
        time.sleep(args.every)


if __name__ == "__main__":
    sys.exit(main())
