"""`{% javascript_catalogue %}`: the address of the scripts' words in the page's language
(junta/site/javascript.py), for base.html's script tag."""

from __future__ import annotations

from django import template

from junta.site.javascript import catalogue_url

register = template.Library()


@register.simple_tag
def javascript_catalogue() -> str:
    return catalogue_url()
