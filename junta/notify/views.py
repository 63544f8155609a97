"""Pages: my notifications and calendar, a campaign's notification settings, declaring days
away, the unsubscribe link from a mail (no login), the calendar feed (secret address), and the
writes of the profile's push notifications (a device subscribed by its script, removed, the
events chosen)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.public import AuthenticatedHttpRequest
from junta.games.public import game_for, my_games
from junta.notify import calendar, selectors, services
from junta.notify.forms import AbsenceForm, PreferencesForm, PushChoicesForm, PushSubscriptionForm
from junta.notify.mail import read_unsubscribe_token
from junta.notify.models import CalendarFeed, Kind, Preferences


def _feed_url(request: HttpRequest, feed: CalendarFeed) -> str:
    return request.build_absolute_uri(reverse("notify_calendar", args=[feed.token]))


@login_required
def overview(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My campaigns with what I get by mail from each, and my calendar feed."""
    games = my_games(request.user)
    prefs = {p.game_id: p for p in Preferences.objects.filter(user=request.user)}
    rows = []
    for game in games:
        chosen = prefs.get(game.id) or Preferences.fresh(game, request.user.pk)
        kinds = [Kind(k).label for k in (*Kind.values,)
                 if chosen.wants(k) and (k != Kind.ABSENCE or game.gm_id == request.user.id)]
        rows.append({"game": game, "kinds": kinds})
    feed = selectors.calendar_feed(request.user)
    return render(request, "notify/overview.html", {
        "rows": rows, "feed_url": _feed_url(request, feed),
        "webcal_url": _feed_url(request, feed).replace("https://", "webcal://", 1)
        .replace("http://", "webcal://", 1),
    })


@login_required
@require_POST
def reset_calendar(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A new secret address for the feed; the old one stops working at once."""
    services.reset_calendar(request.user)
    messages.success(request, "Your calendar has a new address; the old one no longer works. "
                     "Subscribe again with the new one.")
    return redirect("notify_overview")


def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The .ics of the person whose secret this is (no login: calendar apps cannot log in)."""
    feed = CalendarFeed.objects.select_related("user").filter(token=token).first()
    if feed is None or not feed.user.is_active:
        raise Http404
    response = HttpResponse(calendar.feed(feed.user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="junta-deadlines.ics"'
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response


@login_required
def game_settings(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """What I get by mail from this campaign (players and its GM only)."""
    game = game_for(request.user, game_id)
    prefs = selectors.preferences_for(game, request.user)
    is_gm = game.gm_id == request.user.id
    form = PreferencesForm(request.POST or None, instance=prefs, is_gm=is_gm)
    if request.method == "POST":
        if form.is_valid():
            services.save_preferences(form)
            messages.success(request, f"Your e-mail choices for {game.name} are saved.")
            return redirect("game_notifications", game_id=game.id)
        return render(request, "notify/game_settings.html",
                      {"game": game, "form": form, "is_gm": is_gm}, status=400)
    return render(request, "notify/game_settings.html",
                  {"game": game, "form": form, "is_gm": is_gm,
                   "email": request.user.email})


@login_required
@require_POST
def add_absence(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    game = game_for(request.user, game_id)
    form = AbsenceForm(request.POST, today=selectors.local_today(request.user))
    absence = services.add_absence(game, request.user, form)
    if absence is not None:
        messages.success(request, f"Noted: you are away from {absence.starts_on:%d %B} to "
                         f"{absence.ends_on:%d %B}. The GameMaster sees it.")
    else:
        errors = "; ".join(str(e) for errs in form.errors.values() for e in errs)
        messages.error(request, f"Your absence was not saved: {errors}")
    return redirect(reverse("game_detail", args=[game.id]) + "#absences")


@login_required
@require_POST
def delete_absence(request: AuthenticatedHttpRequest, game_id: int, absence_id: int
                   ) -> HttpResponse:
    game = game_for(request.user, game_id)
    services.withdraw_absence(game, request.user, absence_id)
    messages.success(request, "That absence is withdrawn.")
    return redirect(reverse("game_detail", args=[game.id]) + "#absences")


@csrf_exempt  # the signed token is the authority; mail clients post here (RFC 8058 one-click)
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """From the link in a mail, without logging in: GET asks to confirm (link checkers that
    open every link change nothing), POST turns that kind of mail off."""
    try:
        prefs_id, kind = read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "notify/unsubscribe_invalid.html", status=400)
    prefs = Preferences.objects.select_related("game").filter(pk=prefs_id).first()
    if prefs is None:
        return render(request, "notify/unsubscribe_invalid.html", status=400)
    # whoever holds the link sees the campaign and the kind of mail, not whose address it is
    context = {"game": prefs.game, "kind": kind, "label": Kind(kind).label, "token": token,
               "done": False}
    if request.method == "POST":
        services.unsubscribe(prefs, kind)
        context["done"] = True
    return render(request, "notify/unsubscribe.html", context)


def _profile_push() -> HttpResponse:
    return redirect(reverse("profile") + "#push")


def _refused(reason: str) -> JsonResponse:
    return JsonResponse({"error": reason}, status=400)


@login_required
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The profile's script posts the browser's subscription here (`toJSON()`: `endpoint`,
    `keys.p256dh`, `keys.auth`) with the CSRF token: 201 and the device, or 400 and why not."""
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return _refused("The subscription is not JSON.")
    if not isinstance(data, dict):
        return _refused("The subscription is not a JSON object.")
    keys = data.get("keys")
    keys = keys if isinstance(keys, dict) else {}
    fields = {"endpoint": data.get("endpoint"), "p256dh": keys.get("p256dh"),
              "auth": keys.get("auth")}
    if any(value is not None and not isinstance(value, str) for value in fields.values()):
        return _refused("The subscription's endpoint and keys must be strings.")
    form = PushSubscriptionForm({k: v for k, v in fields.items() if v is not None})
    try:
        device = services.subscribe_push(request.user, form,
                                         request.headers.get("User-Agent", ""))
    except services.PushRefused as error:
        return _refused(str(error))
    said = f"Notifications are on for this device ({device.label})."
    messages.success(request, said)
    return JsonResponse({"device": {"id": device.pk, "label": device.label}, "message": said},
                        status=201)


@login_required
@require_POST
def push_remove(request: AuthenticatedHttpRequest, device_id: int) -> HttpResponse:
    device = services.remove_push_device(request.user, device_id)
    messages.success(request, f"{device.label} gets no more notifications from Junta.")
    return _profile_push()


@login_required
@require_POST
def push_choices(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PushChoicesForm(request.POST, instance=selectors.push_choices(request.user),
                           prefix="push")  # as the profile draws it
    if form.is_valid():
        services.save_push_choices(form)
        messages.success(request, "Your choice of notifications is saved.")
    else:
        messages.error(request, "Your choice of notifications was not saved.")
    return _profile_push()
