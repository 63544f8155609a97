"""Forms read from a page's HTML and submitted exactly as a browser sends them.

A browser submits every named control of the form, in document order, duplicates included:
hidden and text inputs with their value, the selected option of a select (the first one when
none is marked selected), ticked checkboxes only, a textarea's text. Tests that post to a page
through these helpers see the same field names and values a player's browser sends, so a name
clash between two controls of one form (two fields called `action`) shows up as it would live.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode


@dataclass
class Control:
    tag: str  # input, select, textarea
    type: str  # input type; "select" or "select-multiple"; "textarea"
    name: str
    value: str = ""
    checked: bool = False
    options: list[tuple[str, str, bool]] = field(default_factory=list)  # value, text, selected
    id: str = ""
    attrs: dict[str, str] = field(default_factory=dict)  # every attribute of the element


@dataclass
class Form:
    attrs: dict[str, str]
    controls: list[Control] = field(default_factory=list)

    def control(self, name: str) -> Control:
        found = [c for c in self.controls if c.name == name]
        if not found:
            raise KeyError(f"no control named {name!r} in the form "
                           f"(names: {sorted({c.name for c in self.controls})})")
        return found[0]

    def names(self) -> list[str]:
        return [c.name for c in self.controls if c.name]

    def set(self, name: str, value: str | list[str]) -> Form:
        """Fill in a control as a player would: choose an option, type a number, tick boxes.
        Refuses a value the control does not offer (a player cannot choose it either)."""
        found = [c for c in self.controls if c.name == name]
        if not found:
            raise KeyError(name)
        first = found[0]
        if first.type == "radio":
            if value not in {c.value for c in found}:
                raise ValueError(f"{name}: {value!r} not among {[c.value for c in found]}")
            for c in found:
                c.checked = c.value == value
            return self
        if first.type == "checkbox":
            wanted = {value} if isinstance(value, str) else set(value)
            offered = {c.value for c in found}
            if not wanted <= offered:
                raise ValueError(f"{name}: {sorted(wanted - offered)} not among {offered}")
            for c in found:
                c.checked = c.value in wanted
            return self
        if first.tag == "select":
            wanted = {value} if isinstance(value, str) else set(value)
            offered = {v for v, _, _ in first.options}
            if not wanted <= offered:
                raise ValueError(f"{name}: {sorted(wanted - offered)} not among "
                                 f"{sorted(offered)}")
            first.options = [(v, t, v in wanted) for v, t, _ in first.options]
            return self
        first.value = value if isinstance(value, str) else value[0]
        return self

    def choose(self, value: str) -> Form:
        """Choose `value` in the one list of the form that offers it ("withdraw")."""
        lists = [c for c in self.controls if c.tag == "select"
                 and any(v == value for v, _, _ in c.options)]
        if len(lists) != 1:
            raise AssertionError(f"{len(lists)} lists offer {value!r}")
        lists[0].options = [(v, t, v == value) for v, t, _ in lists[0].options]
        return self

    def type_number(self, value: str, index: int = 0) -> Form:
        """Type into the form's number box (the `index`-th one)."""
        [c for c in self.controls if c.type == "number"][index].value = value
        return self

    def type_text(self, name: str, text: str) -> Form:
        """Type `text` into a text field or textarea as a person would: the browser stops
        taking characters at its `maxlength`, counting a line break as one character."""
        control = self.control(name)
        limit = control.attrs.get("maxlength")
        control.value = text[:int(limit)] if limit else text
        return self

    def submission(self) -> list[tuple[str, str]]:
        """The (name, value) pairs the browser sends, in document order."""
        pairs: list[tuple[str, str]] = []
        for c in self.controls:
            if not c.name:
                continue
            if c.type in ("checkbox", "radio"):
                if c.checked:
                    pairs.append((c.name, c.value or "on"))
            elif c.type == "select":
                chosen = [v for v, _, sel in c.options if sel]
                if chosen:
                    pairs.append((c.name, chosen[-1]))
                elif c.options:
                    pairs.append((c.name, c.options[0][0]))
            elif c.type == "select-multiple":
                pairs += [(c.name, v) for v, _, sel in c.options if sel]
            elif c.type in ("submit", "button", "reset", "image", "file"):
                continue
            elif c.type == "textarea":
                # the form data set sends each line break of a textarea as CRLF
                text = c.value.replace("\r\n", "\n").replace("\r", "\n")
                pairs.append((c.name, text.replace("\n", "\r\n")))
            else:
                pairs.append((c.name, c.value))
        return pairs

    def encoded(self) -> str:
        return urlencode(self.submission())


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Control | None = None
        self._option: list | None = None
        self._textarea: Control | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = Form(a)
            self.forms.append(self._form)
            return
        if self._form is None:
            return
        if tag == "input":
            self._form.controls.append(Control(
                "input", a.get("type", "text").lower(), a.get("name", ""), a.get("value", ""),
                "checked" in a, id=a.get("id", ""), attrs=a))
        elif tag == "select":
            kind = "select-multiple" if "multiple" in a else "select"
            self._select = Control("select", kind, a.get("name", ""), id=a.get("id", ""),
                                   attrs=a)
            self._form.controls.append(self._select)
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "", "selected" in a]
        elif tag == "textarea":
            self._textarea = Control("textarea", "textarea", a.get("name", ""),
                                     id=a.get("id", ""), attrs=a)
            self._form.controls.append(self._textarea)

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option[1] += data
        elif self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None and self._select is not None:
            value, text, selected = self._option
            self._select.options.append((text if value is None else value, text.strip(),
                                         selected))
            self._option = None
        elif tag == "select":
            if self._option is not None and self._select is not None:
                self.handle_endtag("option")
            self._select = None
        elif tag == "textarea":
            if self._textarea is not None and self._textarea.value.startswith("\n"):
                self._textarea.value = self._textarea.value[1:]
            self._textarea = None
        elif tag == "form":
            self._form = None


def forms_in(html: str) -> list[Form]:
    parser = _Parser()
    parser.feed(html)
    return parser.forms


def form_with(html: str, name: str, value: str) -> Form:
    """The form holding a control `name` with the value `value` (a hidden `kind=bank`)."""
    found = [f for f in forms_in(html)
             if any(c.name == name and c.value == value for c in f.controls)]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} forms hold {name}={value!r}")
    return found[0]


def submit(client, url: str, form: Form):  # noqa: ANN001, ANN201 - the test client's types
    """POST the form as the browser would, to `url` (the page's own address for a form with
    no action)."""
    return client.post(form.attrs.get("action") or url, form.encoded(),
                       content_type="application/x-www-form-urlencoded")


def csrf_browser(user):  # noqa: ANN001, ANN201 - a user; the test client
    """A logged-in test client that checks CSRF tokens as the site does for a browser, holding
    its CSRF cookie (as after a first page)."""
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse

    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("lobby"))
    assert settings.CSRF_COOKIE_NAME in client.cookies
    return client


def form_to(html: str, action: str) -> Form:
    """The one form of the page that posts to `action`."""
    found = [f for f in forms_in(html) if f.attrs.get("action") == action]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} forms post to {action!r}")
    return found[0]


def asked(client, page_url: str, action: str,  # noqa: ANN001 - the test client
          fill: dict[str, str] | None = None) -> str:
    """A GM action that asks first, clicked as in a browser: the form of the page at
    `page_url` that posts to `action`, filled in (`fill`: name -> value), sent. Returns the
    HTML of the confirmation page it answers with (nothing done yet)."""
    form = form_to(client.get(page_url).content.decode(), action)
    for name, value in (fill or {}).items():
        form.set(name, value)
    response = submit(client, page_url, form)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def asked_and_confirmed(client, page_url: str, action: str,  # noqa: ANN001 - the test client
                        fill: dict[str, str] | None = None) -> tuple[str, object]:
    """`asked`, then the Confirm button of the confirmation page clicked. Returns the
    confirmation page's HTML and the response to Confirm."""
    html = asked(client, page_url, action, fill)
    return html, submit(client, page_url, form_with(html, "confirm", "yes"))
