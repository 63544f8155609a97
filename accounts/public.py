"""What the rest of the project may use of the accounts, and nothing else of them.

The custom user is every app's person; the apps import from this module only (an import contract
in pyproject.toml enforces it):

- the user (`User`) and the request of a logged-in person (`AuthenticatedHttpRequest`, whose
  `user` is a `User`), for the views behind `login_required`;
- the profile's form and its write (`ProfileForm`, `save_profile`), for the profile page the
  site layer shows;
- the languages (`is_language`, `language_of`, `speaking`: what is written to a person with
  no browser to ask, a mail or a push, is written in his language) and the footer switcher's
  write (`save_language`);
- time zones as the profile takes them (`TimeZoneField`, `validate_time_zone`,
  `is_valid_time_zone`), for a campaign's zone and the GM panel's backups;
- the people a campaign's file names, by e-mail address: those an export's rows refer to
  (`PeopleNamed`), found or created on import (`find_or_create_people`).
"""

from __future__ import annotations

from accounts.archive import PeopleNamed, find_or_create_people
from accounts.forms import ProfileForm, TimeZoneField
from accounts.languages import is_language, language_of, speaking
from accounts.models import User, validate_time_zone
from accounts.requests import AuthenticatedHttpRequest
from accounts.services import save_language, save_profile
from accounts.timezones import is_valid_time_zone

__all__ = [
    "AuthenticatedHttpRequest", "ProfileForm", "TimeZoneField", "User", "is_valid_time_zone",
    "save_profile", "validate_time_zone",
    # the languages: mails and pushes in the recipient's, the footer's switcher
    "is_language", "language_of", "save_language", "speaking",
    # a campaign's file (junta.gm.backup)
    "PeopleNamed", "find_or_create_people",
]
