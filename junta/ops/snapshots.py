"""Page snapshots: what every stored campaign and every page of the site look like, written to a
folder, so that two versions of the code can be compared file by file (`manage.py
page_snapshots`, junta/ops/management/commands/page_snapshots.py).

A recording has two parts:
- `states/`: for each campaign, each phase's stored starting state loaded and written again
  (`GameState.from_dict(...).to_dict()` equal to what is stored), its digest, and the phase
  replayed from the start (`junta.games.replay`) with the stored and replayed digests;
- `pages/<viewer>/`: every page each viewer can ask for, as the site answers a GET from Django's
  test client: its status, content type, redirect and body. The pages are found, not listed: the
  URL configuration's every route, its arguments filled from the campaigns' objects (campaigns,
  players, phases, conversations, polls, invitations), then every link of the site found in the
  pages answered (the Events page of each phase, the pages of a long list, ...).

What may differ between two runs of the same code is held still where it is made: the clock is
fixed (`django.utils.timezone.now`, which the site reads everywhere), and the secrets the site
draws (invitation and calendar tokens, CSRF tokens, session keys, uuids) come from a seeded
generator. What is still drawn per request is written as a placeholder: the CSRF token of a form
and the nonce of a script, and any value the seeded generator gave (in case two versions of the
code draw their secrets in another order).
"""

from __future__ import annotations

import base64
import contextlib
import difflib
import hashlib
import html
import json
import random
import re
import secrets
import sys
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

from django.apps import apps
from django.conf import settings
from django.core.signals import got_request_exception
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.exceptions import Resolver404
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils import timezone

from accounts.public import User
from junta import engine
from junta.games.public import Game, Phase, PhaseResult, Player, replay_game

# The moment every recording is made at: the demo's campaigns are played up to it, and every
# page is drawn at it.
FIXED_NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
SEED = "page-snapshots"
# the host the test client asks (one of the development settings' ALLOWED_HOSTS)
HOST = "localhost"
# a file of the recording that compare skips: when and how it was made
META = "meta.json"
# Links followed from the pages answered: at most this many query strings for one path and one
# set of parameter names (the phases of the Events page, the pages of a list), and fewer for the
# parameters that only fill in a form or say where to go after logging in (one speech answered
# shows the form as well as a hundred).
MAX_VARIANTS = 400
FEW_VARIANTS = {"next": 2, "reply_to": 3, "change": 3, "order_for": 3, "to": 3}
MAX_PAGES_PER_VIEWER = 6000
# Paths never asked for: files (no page), and the admin's pages of single rows (its lists are)
NOT_FOLLOWED = ("/static/", "/media/", "/admin/")
ROUTE_PART = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
NONCE = re.compile(r'(nonce=")[^"]*(")')
TOKEN = re.compile(r"[A-Za-z0-9_\-]{12,}")
HREF = re.compile(r'href="([^"]*)"')
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript")


# --- holding still what varies ------------------------------------------------------------------

@contextlib.contextmanager
def fixed_clock(now: datetime = FIXED_NOW) -> Iterator[None]:
    """`django.utils.timezone.now` answers `now`: every date the site stores or draws (the
    site reads the time only through it, as Django's own fields and sessions do), and so do the
    fields whose default is that function itself (an account's date joined)."""
    real = timezone.now

    def fixed() -> datetime:
        return now

    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(timezone, "now", fixed))
        for model in apps.get_models():
            for model_field in model._meta.get_fields():
                if getattr(model_field, "default", None) is real:
                    # the default and the field's cached reader of it (Field._get_default)
                    stack.enter_context(mock.patch.object(model_field, "default", fixed))
                    stack.enter_context(mock.patch.object(model_field, "_get_default", fixed))
        yield


class Randomness:
    """The `secrets` module and `uuid.uuid4` drawing from a generator seeded with `seed`, and
    remembering every token they gave (`drawn`), so that a page showing one can be written with
    a placeholder instead."""

    def __init__(self, seed: str = SEED) -> None:
        self.rng = random.Random(seed)
        self.drawn: set[str] = set()

    def _bytes(self, nbytes: int | None = None) -> bytes:
        return self.rng.randbytes(32 if nbytes is None else nbytes)

    def _remember(self, value: str) -> str:
        if len(value) >= 12:
            self.drawn.add(value)
        return value

    def token_hex(self, nbytes: int | None = None) -> str:
        return self._remember(self._bytes(nbytes).hex())

    def token_urlsafe(self, nbytes: int | None = None) -> str:
        return self._remember(
            base64.urlsafe_b64encode(self._bytes(nbytes)).rstrip(b"=").decode("ascii"))

    def choice(self, sequence: Sequence[str]) -> str:
        return self.rng.choice(sequence)

    def randbelow(self, exclusive_upper_bound: int) -> int:
        return self.rng.randrange(exclusive_upper_bound)

    def randbits(self, k: int) -> int:
        return self.rng.getrandbits(k)

    def uuid4(self) -> uuid.UUID:
        value = uuid.UUID(bytes=self._bytes(16), version=4)
        self._remember(value.hex)
        self._remember(str(value))
        return value

    @contextlib.contextmanager
    def installed(self) -> Iterator[Randomness]:
        with contextlib.ExitStack() as stack:
            for name in ("token_hex", "token_urlsafe", "choice", "randbelow", "randbits"):
                stack.enter_context(mock.patch.object(secrets, name, getattr(self, name)))
            stack.enter_context(mock.patch.object(secrets, "token_bytes", self._bytes))
            stack.enter_context(mock.patch.object(uuid, "uuid4", self.uuid4))
            yield self


def normalise(text: str, drawn: set[str]) -> str:
    """The page as written: the site's folder (`record` makes a new one each time), the form's
    CSRF token, the scripts' nonce and every token the seeded generator gave replaced by a
    placeholder."""
    text = text.replace(str(settings.VAR_DIR), "«var»")
    text = CSRF.sub(r"\1«csrf»\2", text)
    text = NONCE.sub(r"\1«nonce»\2", text)
    if drawn:
        text = TOKEN.sub(lambda m: "«random»" if m.group(0) in drawn else m.group(0), text)
    return text


# --- the stored states --------------------------------------------------------------------------

def record_states(out: Path) -> list[str]:
    """Write states/<campaign id>.txt for every campaign: each phase's stored state loaded and
    written again, its digest, and its replay's digests. Returns the problems found (a state that
    does not write back as stored, a digest that differs, a phase that replays otherwise)."""
    folder = out / "states"
    folder.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for game in Game.objects.order_by("pk"):
        lines = [f"campaign {game.pk} {game.name!r} status {game.status}"]
        replayed = {line.phase_number: line for line in replay_game(game)}
        for phase in Phase.objects.filter(game=game).order_by("number"):
            where = f"campaign {game.pk} phase {phase.number}"
            lines.append(f"phase {phase.number} {phase.kind} {phase.status}")
            lines.append("  before: " + _state_line(phase.state_before, phase.state_digest,
                                                    where, problems))
            result = PhaseResult.objects.filter(phase=phase).first()
            if result is None:
                continue
            lines.append("  after:  " + _state_line(result.state_after, result.digest,
                                                    f"{where} (result)", problems))
            line = replayed.get(phase.number)
            if line is None:
                problems.append(f"{where}: not replayed")
                lines.append("  replay: none")
                continue
            lines.append(f"  replay: {line.replayed} {'ok' if line.ok else 'FAILS'}: "
                         f"{line.text}")
            if not line.ok or line.replayed != result.digest:
                problems.append(f"{where}: replays to {line.replayed}, stored {result.digest}")
        (folder / f"{game.pk}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return problems


def _state_line(data: dict[str, object], stored: str, where: str, problems: list[str]) -> str:
    """"<digest> <what the load says>" of one stored state, `problems` told of what fails."""
    state = engine.GameState.from_dict(data)
    again = state.to_dict()
    digest = engine.digest(state)
    notes = []
    if again != data:
        problems.append(f"{where}: the state loaded does not write back as stored")
        notes.append("DOES NOT ROUND-TRIP")
    elif json.dumps(again) != json.dumps(data):
        notes.append("round-trips, keys in another order")
    else:
        notes.append("round-trips")
    if digest != stored:
        problems.append(f"{where}: digest {digest}, stored {stored}")
        notes.append(f"STORED DIGEST {stored}")
    return f"{digest} {', '.join(notes)}"


# --- the pages ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Route:
    """One route of the URL configuration: its name ("namespace:name", or its path when it has
    none) and its path, "games/<int:game_id>/events/"."""
    name: str
    path: str

    @property
    def arguments(self) -> list[str]:
        return [m.group("name") for m in ROUTE_PART.finditer(self.path)]

    def url(self, values: dict[str, str]) -> str:
        return "/" + ROUTE_PART.sub(lambda m: values[m.group("name")], self.path)


@dataclass
class Viewer:
    """Who asks: a folder name and an account (None: nobody logged in). `campaigns`: the ids of
    the campaigns whose pages he is shown (the GM's and a player's own; every one for the
    others)."""
    label: str
    user: User | None
    campaigns: list[int]


@dataclass
class Recording:
    out: Path
    randomness: Randomness
    pages: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    skipped: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)


def routes() -> tuple[list[Route], list[str]]:
    """Every route of the URL configuration that a path can be written for, and the others
    (a regular expression with groups), in words."""
    found: list[Route] = []
    skipped: list[str] = []

    def walk(patterns: Sequence[URLPattern | URLResolver], prefix: str, namespace: str) -> None:
        for pattern in patterns:
            text = _route_text(pattern.pattern)
            if text is None:
                skipped.append(f"/{prefix}{pattern.pattern}: a regular expression")
                continue
            if isinstance(pattern, URLResolver):
                inner = ":".join(n for n in (namespace, pattern.namespace or "") if n)
                walk(pattern.url_patterns, prefix + text, inner)
            else:
                name = pattern.name and ":".join(n for n in (namespace, pattern.name) if n)
                found.append(Route(name or f"/{prefix}{text}", prefix + text))

    walk(get_resolver().url_patterns, "", "")
    return found, skipped


def _route_text(pattern: object) -> str | None:
    """A route's path with its <converter:name> parts; a regular expression only when it is a
    plain path (the admin's app lists and the media files' are not)."""
    if isinstance(pattern, RoutePattern):
        return str(pattern)
    if isinstance(pattern, RegexPattern):
        text = str(pattern).removeprefix("^").removesuffix("$").removesuffix(r"\Z")
        return None if re.search(r"[()\[\]{}?*+|\\.]", text) else text
    return None


def viewers() -> list[Viewer]:
    """Nobody, a person who plays in no campaign, and every GM and seated player (in the order
    of their accounts), each with his campaigns."""
    every = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    theirs: dict[int, set[int]] = {}
    for game_id, gm_id in Game.objects.values_list("pk", "gm_id"):
        theirs.setdefault(gm_id, set()).add(game_id)
    for game_id, user_id in Player.objects.filter(
            membership=Player.Membership.ACTIVE).values_list("game_id", "user_id"):
        theirs.setdefault(user_id, set()).add(game_id)
    result = [Viewer("anonymous", None, every)]
    users = User.objects.order_by("pk")
    outsiders = [u for u in users if u.pk not in theirs]
    if outsiders:
        result.append(Viewer(f"outsider-{outsiders[0].email}", outsiders[0], every))
    result += [Viewer(u.email, u, sorted(theirs[u.pk])) for u in users if u.pk in theirs]
    return result


def argument_values(route: Route, name: str, game: Game | None, user: User | None
                    ) -> list[str] | None:
    """The values of the route's argument `name` for `game` (the campaign whose pages these
    are) and `user`: the campaign's objects of that kind; None when nothing says what they are
    (the route is then skipped, and said to be)."""
    model = apps.get_model
    if game is not None:
        def ids(app: str, kind: str, link: str) -> list[str]:
            rows = model(app, kind).objects.filter(**{link: game}).order_by("pk")
            return [str(pk) for pk in rows.values_list("pk", flat=True)]

        if name == "player_id":
            return ids("games", "Player", "game")
        if name == "number":
            return [str(n) for n in Phase.objects.filter(game=game).order_by(
                "number").values_list("number", flat=True)]
        if name == "conversation_id":
            return ids("talk", "Conversation", "game")
        if name == "poll_id":
            return ids("polls", "Poll", "game")
        if name == "absence_id":
            return ids("notify", "Absence", "player__game")
        if name == "token" and "invite" in route.path:
            return [game.invite_token]
    if name == "token" and "calendar" in route.path and user is not None:
        return [str(t) for t in model("notify", "CalendarFeed").objects.filter(
            user=user).values_list("token", flat=True)]
    return None


def record_pages(out: Path, randomness: Randomness, *, only: Callable[[Route], bool] | None = None,
                 who: Callable[[Viewer], bool] | None = None, follow: bool = True
                 ) -> Recording:
    """Write pages/<viewer>/<path>.txt for every page each viewer can ask for (see the module's
    docstring); `only` and `who` narrow the routes and the viewers, and without `follow` no
    link found in a page is asked for (the smoke test's small recording)."""
    recording = Recording(out, randomness)
    every, skipped = routes()
    recording.skipped.update(skipped)
    chosen = [r for r in every if only is None or only(r)]
    games = {g.pk: g for g in Game.objects.order_by("pk")}
    for viewer in viewers():
        if who is not None and not who(viewer):
            continue
        seeds: list[str] = []
        for route in chosen:
            arguments = route.arguments
            scope = [games[pk] for pk in viewer.campaigns] if "game_id" in arguments else [None]
            for game in scope:
                seeds += _urls(route, arguments, game, viewer.user, recording)
        _crawl(viewer, sorted(set(seeds)), recording, follow)
    (out / "skipped.txt").write_text("".join(f"{line}\n" for line in sorted(recording.skipped)),
                                     encoding="utf-8")
    return recording


def _urls(route: Route, arguments: list[str], game: Game | None, user: User | None,
          recording: Recording) -> list[str]:
    """The paths of `route` for `game` and `user`, each argument taking each of its values."""
    choices: list[dict[str, str]] = [{"game_id": str(game.pk)} if game is not None else {}]
    for name in arguments:
        if name == "game_id":
            continue
        values = argument_values(route, name, game, user)
        if values is None:
            recording.skipped.add(f"{route.name} (/{route.path}): no values for <{name}>")
            return []
        choices = [{**c, name: v} for c in choices for v in values]
    return [route.url(c) for c in choices]


def _crawl(viewer: Viewer, seeds: list[str], recording: Recording, follow: bool) -> None:
    """Ask for every seed, then (`follow`) for every new link of the site the answers hold, in
    order."""
    client = Client(raise_request_exception=False, SERVER_NAME=HOST)
    if viewer.user is not None:
        client.force_login(viewer.user)
    queue = deque(seeds)
    seen = set(seeds)
    variants: Counter[tuple[str, tuple[str, ...]]] = Counter()
    folder = recording.out / "pages" / _file_name(viewer.label)
    asked = 0
    while queue and asked < MAX_PAGES_PER_VIEWER:
        url = queue.popleft()
        asked += 1
        kind, raw, text = _ask(client, url, recording)
        if follow and kind.startswith("text/html"):
            for link in _links(url, raw.decode("utf-8", errors="replace")):
                if link in seen or not _follow(link, variants):
                    continue
                seen.add(link)
                queue.append(link)
        folder.mkdir(parents=True, exist_ok=True)
        name = _file_name(normalise(url, recording.randomness.drawn))
        (folder / (name + ".txt")).write_text(text, encoding="utf-8")
    if queue:
        recording.errors.append(f"{viewer.label}: stopped after {asked} pages, "
                                f"{len(queue)} still to ask")


def _ask(client: Client, url: str, recording: Recording) -> tuple[str, bytes, str]:
    """(content type, body, the file's text) of a GET of `url`."""
    failures: list[str] = []

    def caught(sender: object, request: object = None, **kwargs: object) -> None:
        failures.append(_exception_text())

    got_request_exception.connect(caught)
    try:
        response: HttpResponseBase = client.get(url)
    finally:
        got_request_exception.disconnect(caught)
    recording.pages += 1
    recording.statuses[response.status_code] += 1
    kind = response.get("Content-Type", "")
    raw = response.getvalue() if isinstance(response, StreamingHttpResponse) else \
        response.content if isinstance(response, HttpResponse) else b""
    drawn = recording.randomness.drawn
    head = [f"GET {normalise(url, drawn)}", f"status: {response.status_code}",
            f"content-type: {kind}"]
    if response.has_header("Location"):
        head.append(f"location: {normalise(response['Location'], drawn)}")
    if response.has_header("Content-Disposition"):
        head.append(f"content-disposition: {response['Content-Disposition']}")
    head += [f"exception: {failure}" for failure in failures]
    if failures:
        recording.errors.append(f"{url}: {failures[0]}")
    if kind.startswith(TEXT_TYPES) or not raw:
        body = normalise(raw.decode("utf-8", errors="replace"), drawn)
    else:
        body = f"({len(raw)} bytes of {kind})"
    return kind, raw, "\n".join(head) + "\n\n" + body


def _exception_text() -> str:
    """The exception a request raised, in a line (its type and message)."""
    kind, error, _trace = sys.exc_info()
    return f"{kind.__name__}: {error}" if kind is not None else "unknown"


def _links(url: str, body: str) -> list[str]:
    """The links of the site in a page, as paths with their query strings (no fragment)."""
    found = []
    for match in HREF.finditer(body):
        target = urlsplit(urljoin(f"http://{HOST}{url}", html.unescape(match.group(1))))
        if target.netloc != HOST or target.path.startswith(NOT_FOLLOWED):
            continue
        query = urlencode(sorted(parse_qsl(target.query, keep_blank_values=True)))
        found.append(target.path + (f"?{query}" if query else ""))
    return found


def _follow(link: str, variants: Counter[tuple[str, tuple[str, ...]]]) -> bool:
    """Whether a link found in a page is asked for: its path must be a page of the site, and its
    query string one of the first few of its kind."""
    path, _, query = link.partition("?")
    try:
        get_resolver().resolve(path)
    except Resolver404:
        return False
    keys = tuple(sorted({k for k, _ in parse_qsl(query, keep_blank_values=True)}))
    limit = min([MAX_VARIANTS, *(FEW_VARIANTS.get(k, MAX_VARIANTS) for k in keys)])
    variants[path, keys] += 1
    return variants[path, keys] <= limit


def _file_name(url: str) -> str:
    """A file name for a path (or a viewer's label): "/games/3/events/?phase=4" is
    "games~3~events~@phase=4"."""
    text = url.strip("/").replace("/?", "?").replace("/", "~").replace("?", "~@")
    text = re.sub(r"[^A-Za-z0-9._=@~,+-]", "_", text) or "_root"
    if len(text) > 150:  # a file name has 255 bytes at most: the rest is told by a hash
        text = text[:130] + "~" + hashlib.sha256(text.encode()).hexdigest()[:16]
    return text


# --- comparing two recordings -------------------------------------------------------------------

def files_of(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != META}


def compare(first: Path, second: Path, *, excerpt: int = 40) -> list[str]:
    """What differs between two recordings, in lines (none when they are equal): the files
    only one has, and for each file both have but differently, a unified diff of it cut to
    `excerpt` lines."""
    a, b = files_of(first), files_of(second)
    report: list[str] = []
    for name in sorted(a.keys() - b.keys()):
        report.append(f"only in {first}: {name}")
    for name in sorted(b.keys() - a.keys()):
        report.append(f"only in {second}: {name}")
    for name in sorted(a.keys() & b.keys()):
        old, new = a[name].read_bytes(), b[name].read_bytes()
        if old == new:
            continue
        diff = list(difflib.unified_diff(
            old.decode("utf-8", errors="replace").splitlines(),
            new.decode("utf-8", errors="replace").splitlines(),
            f"{first}/{name}", f"{second}/{name}", lineterm="", n=2))
        report.append(f"differs: {name}")
        report += [f"    {line}"[:300] for line in diff[:excerpt]]
        if len(diff) > excerpt:
            report.append(f"    ... {len(diff) - excerpt} more lines of diff")
    return report
