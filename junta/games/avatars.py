"""Avatar uploads: PNG, JPEG, GIF or WebP images of at most 1 MB and 2000 x 2000 pixels, checked
by decoding them with Pillow (the file name and the browser's content type are not trusted).
Whatever Pillow makes of a file (a decompression bomb, a broken or hostile header), the answer is
a form error, never a server error."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from PIL import Image

MAX_AVATAR_BYTES = 1024 * 1024
MAX_AVATAR_PIXELS = 2000
ALLOWED_FORMATS = {"PNG": "png", "JPEG": "jpg", "GIF": "gif", "WEBP": "webp"}


def validate_avatar(upload: UploadedFile[bytes]) -> str:
    """Raise ValidationError with a specific message, or return the file extension to use."""
    size = upload.size or 0  # None only for a file object that was never uploaded
    if size > MAX_AVATAR_BYTES:
        raise ValidationError(
            f"The avatar is {size // 1024} KB; the limit is {MAX_AVATAR_BYTES // 1024} KB."
        )
    try:
        upload.seek(0)
        with Image.open(upload) as image:
            image_format = image.format
            width, height = image.size
            image.verify()
    except Image.DecompressionBombError as error:  # a small file declaring an enormous image
        raise ValidationError(
            f"The avatar declares far more pixels than an avatar may have; the limit is "
            f"{MAX_AVATAR_PIXELS} x {MAX_AVATAR_PIXELS}."
        ) from error
    except Exception as error:  # Pillow raises many kinds of errors on a broken file
        raise ValidationError(
            "The avatar must be a PNG, JPEG, GIF or WebP image; this file is not one."
        ) from error
    finally:
        upload.seek(0)
    if image_format not in ALLOWED_FORMATS:
        raise ValidationError(
            f"The avatar is a {image_format} image; use PNG, JPEG, GIF or WebP."
        )
    if width > MAX_AVATAR_PIXELS or height > MAX_AVATAR_PIXELS:
        raise ValidationError(
            f"The avatar is {width} x {height} pixels; the limit is "
            f"{MAX_AVATAR_PIXELS} x {MAX_AVATAR_PIXELS}."
        )
    return ALLOWED_FORMATS[image_format]
