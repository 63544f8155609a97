"""The tokens page's form: name a new token."""

from django import forms

from junta.api.models import MAX_TOKEN_NAME


class TokenForm(forms.Form):
    name = forms.CharField(
        label="Name", max_length=MAX_TOKEN_NAME,
        help_text="What the token is for (a bot, a script): you see the name, never the "
                  "secret again.",
        error_messages={"required": "Give the token a name, so you know later what it is "
                                    "for."})
