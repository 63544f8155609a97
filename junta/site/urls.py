"""The site's pages, at the addresses they always had."""

from django.urls import path

from junta.site import dashboard

urlpatterns = [
    path("", dashboard.home, name="home"),  # the dashboard once logged in
]
