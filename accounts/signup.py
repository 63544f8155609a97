"""allauth's sign-up form (ACCOUNT_FORMS["signup"]), with the extra fields of
accounts.forms.SignupForm (ACCOUNT_SIGNUP_FORM_CLASS), made to cost the same for a registered
address as for a new one.

A module of its own: allauth.account.forms imports accounts.forms while it is being loaded, so
accounts.forms cannot import allauth.account.forms back.
"""

from __future__ import annotations

from typing import cast

from allauth.account.forms import SignupForm
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.hashers import make_password
from django.http import HttpRequest, HttpResponse


class EvenSignupForm(SignupForm):  # type: ignore[misc]  # allauth is untyped (Any)
    def try_save(
        self, request: HttpRequest
    ) -> tuple[AbstractBaseUser | None, HttpResponse | None]:
        if self.account_already_exists:
            # A new address's password is hashed when its user is saved (allauth's save_user);
            # hash this one too and throw the hash away, so that both answers take the hasher's
            # time. allauth sends this address an "account already exists" mail instead.
            data = self.cleaned_data
            make_password(data.get("password1") or data.get("password") or None)
        # allauth is untyped: its try_save returns Any
        return cast(tuple[AbstractBaseUser | None, HttpResponse | None],
                    super().try_save(request))
