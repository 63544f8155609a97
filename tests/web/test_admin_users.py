"""The site staff's user admin: the password is a read-only line with a link to Django's own
set-a-new-password page, and saving a user's change form keeps the password as it was."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_saving_a_user_in_the_admin_keeps_the_password(client):
    User = get_user_model()
    staff = User.objects.create_superuser(email="staff@example.org", password="s3cret-staff-pw")
    player = User.objects.create_user(email="carlos@example.org", password="carlos-pw-2026",
                                      display_name="Carlos")
    client.force_login(staff)
    url = f"/admin/accounts/user/{player.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert f'href="/admin/accounts/user/{player.pk}/password/"' in html
    assert "set (" in html
    assert client.get(f"/admin/accounts/user/{player.pk}/password/").status_code == 200

    response = client.post(url, {
        "email": "carlos@example.org", "display_name": "Carlos the Bold",
        "time_zone": player.time_zone, "is_active": "on", "_save": "Save",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert player.display_name == "Carlos the Bold"
    assert player.check_password("carlos-pw-2026")
