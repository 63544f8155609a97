"""The people a campaign file names (`junta.gm.backup`): by e-mail address, never by a password.

An export collects the accounts its rows refer to (`PeopleNamed`: each by its id, written as
its e-mail address) and lists them once, sorted, with their display names and time zones; an
import finds each by e-mail address or creates the account without a usable password (he sets
one with "forgot password"), keeping the time zone the file gives when it is one this site knows
(`find_or_create_people`).
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from accounts.timezones import is_valid_time_zone

# A person as the file lists him: JSON's values (Any, as json.loads gives them)
Person = dict[str, Any]


class PeopleNamed:
    """The accounts an export's rows refer to, collected as the rows are written."""

    def __init__(self) -> None:
        self._by_id: dict[int, User] = {}

    def email(self, user_id: int | None) -> str | None:
        """How a row names the account `user_id`: its e-mail address (None for no one)."""
        if user_id is None:
            return None
        if user_id not in self._by_id:
            self._by_id[user_id] = User.objects.get(pk=user_id)
        return self._by_id[user_id].email

    def rows(self) -> list[Person]:
        """Each account named, once, by e-mail address."""
        return [{"email": u.email, "display_name": u.display_name, "time_zone": u.time_zone}
                for u in sorted(self._by_id.values(), key=lambda u: u.email)]


def find_or_create_people(people: list[Person]) -> tuple[dict[str, User], list[str]]:
    """Each person of the file by e-mail: the site's account, or a new one without a usable
    password. Returns the accounts by the file's e-mail addresses, and the addresses of those
    created."""
    users: dict[str, User] = {}
    created = []
    for person in people:
        email = person["email"]
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            zone = person.get("time_zone") or ""
            user = User.objects.create_user(
                email=email, password=None, display_name=person.get("display_name", ""),
                **({"time_zone": zone} if is_valid_time_zone(zone) else {}))
            created.append(user.email)
        users[email] = user
    return users, created
