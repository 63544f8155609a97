from django import template
from django.utils.safestring import SafeString

from junta.games.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    """Render a speech's Markdown to sanitised HTML."""
    return render_markdown(text or "")
