"""/api/v1/ (the JSON API, its schema at v1/openapi.json), its documentation (/api/docs/) and
the page where a person makes and revokes his tokens (/api/tokens/)."""

from django.urls import path

from junta.api import views
from junta.api.api import api

urlpatterns = [
    path("v1/", api.urls),
    path("tokens/", views.tokens_page, name="api_tokens"),
    path("docs/", views.docs_page, name="api_docs"),
]
