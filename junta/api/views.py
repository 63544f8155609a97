"""The page where a person makes his personal API tokens (seeing each secret once), lists them
and revokes them. Linked from the profile page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.requests import AuthenticatedHttpRequest
from junta.api import tokens
from junta.api.forms import TokenForm
from junta.api.models import ApiToken


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET: the list and a form; POST with `name`: make a token and show its secret once;
    POST with `revoke`: revoke one of mine."""
    form = TokenForm()
    secret = ""
    status = 200
    if request.method == "POST":
        if "revoke" in request.POST:
            try:
                token = tokens.revoke(request.user, int(request.POST["revoke"]))
            except (ValueError, tokens.TokenError):
                messages.error(request, "That token is not one of yours.")
            else:
                messages.success(request, f"The token “{token.name}” is revoked: it opens "
                                          "nothing any more.")
            return redirect("api_tokens")
        form = TokenForm(request.POST)
        if form.is_valid():
            try:
                made = tokens.create(request.user, form.cleaned_data["name"])
            except tokens.TokenError as error:
                form.add_error("name", str(error))
            else:
                secret = made.secret
                form = TokenForm()
        if form.errors:
            status = 400
    return render(request, "api/tokens.html", {
        "form": form, "secret": secret,
        "tokens": ApiToken.objects.filter(user=request.user),
        "base_url": request.build_absolute_uri("/api/v1/"),
    }, status=status)


