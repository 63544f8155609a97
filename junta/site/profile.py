"""A person's profile page: his display name and time zone (the accounts' form), his career in
the campaigns he played (the players' side) and the awards he won (the polls)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render

from accounts.public import AuthenticatedHttpRequest, ProfileForm, save_profile


@login_required
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=request.user)
        if form.is_valid():
            save_profile(form)
            messages.success(request, "Your profile has been saved.")
            return redirect("profile")
    else:
        form = ProfileForm(instance=request.user)
    return render(request, "site/profile.html", {"form": form})
