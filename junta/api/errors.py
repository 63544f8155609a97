"""Errors as JSON, each with the field it concerns:
`{"detail": "...", "field": "orders[2].amount"}`,
and, when there are several, all of them under "errors" (the first one repeated at the top, so
a client that reads only "detail" still reads a message)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.views import defaults
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from junta.ops.public import API_PREFIX


@dataclass(frozen=True)
class Issue:
    detail: str
    field: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"detail": self.detail, "field": self.field}


class ApiError(Exception):
    """An answer other than success: its HTTP status and what went wrong, with the fields."""

    def __init__(self, status: int, issues: Sequence[Issue] | str, field: str | None = None
                 ) -> None:
        if isinstance(issues, str):
            issues = [Issue(issues, field)]
        super().__init__(issues[0].detail if issues else "")
        self.status = status
        self.issues = list(issues) or [Issue("Something went wrong.")]


def not_found(what: str = "No such campaign of yours.") -> ApiError:
    """404: the same answer whether the thing does not exist or is not the caller's to see."""
    return ApiError(404, what)


def body(issues: Sequence[Issue]) -> dict[str, object]:
    out = issues[0].as_dict()
    if len(issues) > 1:
        out["errors"] = [i.as_dict() for i in issues]
    return out


def field_path(loc: Sequence[object]) -> str | None:
    """Pydantic's location of a problem as a client writes it: ("body", "payload", "orders", 2,
    "amount") -> "orders[2].amount"; the parameter's own name is left out."""
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header", "cookie", "form"):
        parts = parts[1:]
        if len(parts) > 1 and parts[0] == "payload":
            parts = parts[1:]
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or None


def too_big() -> tuple[int, list[Issue]]:
    """413: a body over DATA_UPLOAD_MAX_MEMORY_SIZE, which Django refuses to read."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return 413, [Issue(f"The request's body is larger than the {limit} bytes the API reads: "
                       "nothing was saved. Send less (a speech or a message is far shorter).")]


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's handler400 (what Django refuses before a view of the API runs: a form's body
    too large for the edge's check, too many fields): under the API, its JSON error (413 for a
    body too large)."""
    if not request.path.startswith(API_PREFIX):
        return defaults.bad_request(request, exception)
    status, issues = too_big() if isinstance(exception, RequestDataTooBig) else (
        400, [Issue("The request cannot be read.")])
    return JsonResponse(body(issues), status=status)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's handler404: under the API, its JSON error."""
    if not request.path.startswith(API_PREFIX):
        return defaults.page_not_found(request, exception)
    return JsonResponse(body([Issue("No such endpoint of the API (see /api/docs/).")]),
                        status=404)


def install(api: NinjaAPI) -> None:
    """Every error the API gives is answered in the one shape above."""

    def answer(request: HttpRequest, status: int, issues: Sequence[Issue]) -> HttpResponse:
        return api.create_response(request, body(issues), status=status)

    @api.exception_handler(ApiError)
    def api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
        return answer(request, exc.status, exc.issues)

    @api.exception_handler(ValidationError)
    def invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        issues = [Issue(str(e.get("msg", "This value is not valid.")), field_path(e.get("loc", ())))
                  for e in exc.errors]
        return answer(request, 400, issues or [Issue("The request is not valid.")])

    @api.exception_handler(AuthenticationError)
    def unauthorised(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        response = answer(request, 401, [Issue(
            "Sign in, or send a personal API token as 'Authorization: Bearer <token>' (make "
            "one at /api/tokens/).", "Authorization")])
        response["WWW-Authenticate"] = "Bearer"
        return response

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        detail = str(exc)
        if exc.status_code == 403 and "CSRF" in detail:
            return answer(request, 403, [Issue(
                "The CSRF check failed: with the session, send the CSRF token in the "
                "X-CSRFToken header (or use a personal API token instead).", "X-CSRFToken")])
        return answer(request, exc.status_code, [Issue(detail)])

    @api.exception_handler(Http404)
    def missing(request: HttpRequest, exc: Http404) -> HttpResponse:
        return answer(request, 404, [Issue("Not found.")])

    @api.exception_handler(RequestDataTooBig)
    def data_too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        return answer(request, *too_big())

    @api.exception_handler(RawPostDataException)
    def not_json(request: HttpRequest, exc: RawPostDataException) -> HttpResponse:
        # a multipart form, read as one before the API could read it as JSON
        return answer(request, 415, [Issue("Send the body as JSON (Content-Type: "
                                           "application/json): nothing was saved.")])

    @api.exception_handler(Throttled)
    def throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
        wait = f" Try again in {int(exc.wait) + 1} seconds." if exc.wait else ""
        return answer(request, 429, [Issue(f"Too many requests.{wait}")])
