"""A person's profile page: his display name, time zone and language (the accounts' form), his
career in the campaigns he played (the players' side), the awards he won (the polls), and the push
notifications on his devices (notify: the devices, the events pushed; its script turns them on
in this browser)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.public import AuthenticatedHttpRequest, ProfileForm, save_profile
from junta.notify.public import PushChoicesForm, push_panel


@login_required
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=request.user)
        if form.is_valid():
            user = save_profile(form)
            if user.language:  # his new language, from this answer on
                translation.activate(user.language)
            messages.success(request, _("Your profile has been saved."))
            return redirect("profile")
    else:
        form = ProfileForm(instance=request.user)
    push = push_panel(request.user)
    return render(request, "site/profile.html", {
        "form": form, "push": push,
        "push_form": PushChoicesForm(instance=push.choices, prefix="push"),
    })
