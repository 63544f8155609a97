"""The page where a person makes his personal API tokens (seeing each secret once), lists them
and revokes them (linked from the profile page), and the API's documentation, drawn from its
OpenAPI schema."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.public import AuthenticatedHttpRequest
from junta.api import tokens
from junta.api.api import api
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




METHODS = ("get", "post", "put", "patch", "delete")


# ref: a part of the OpenAPI schema, JSON as ninja gives it (Any values)
def _schema_name(ref: dict[str, Any] | None) -> str:
    ref = ref or {}
    if "$ref" in ref:
        return str(ref["$ref"]).rsplit("/", 1)[-1]
    if ref.get("type") == "array":
        return f"list of {_schema_name(ref.get('items'))}"
    return str(ref.get("type", ""))


def docs_page(request: HttpRequest) -> HttpResponse:
    """Every endpoint of the API as the schema describes it (method, path, summary,
    description, parameters, body, answers), on a plain page of the site: no script."""
    schema = api.get_openapi_schema()
    endpoints = []
    for path, operations in schema.get("paths", {}).items():
        for method in METHODS:
            op = operations.get(method)
            if op is None:
                continue
            body = ((op.get("requestBody") or {}).get("content") or {}).get(
                "application/json", {}).get("schema")
            endpoints.append({
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "description": op.get("description", ""), "id": op.get("operationId", ""),
                "parameters": [{"name": p.get("name"), "where": p.get("in"),
                                "required": p.get("required", False),
                                "type": _schema_name(p.get("schema"))}
                               for p in op.get("parameters", [])],
                "body": _schema_name(body) if body else "",
                "responses": [(code, (answer.get("description") or ""))
                              for code, answer in sorted(op.get("responses", {}).items())],
            })
    return render(request, "api/docs.html", {
        "info": schema.get("info", {}), "endpoints": endpoints,
        "schemas": [{"name": name, "description": spec.get("description", ""),
                     "fields": [(field, (about or {}).get("description", ""))
                                for field, about in (spec.get("properties") or {}).items()]}
                    for name, spec in sorted(schema.get("components", {})
                                             .get("schemas", {}).items())],
    })
