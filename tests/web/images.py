"""Images for upload tests (tests/web/test_avatars.py, tests/web/test_characters.py)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (64, 64)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (242, 140, 40)).save(buffer, format=fmt)
    return buffer.getvalue()


def declared_bomb_png(width: int = 40000, height: int = 40000) -> bytes:
    """A 69-byte PNG whose header declares `width` x `height` pixels (a decompression bomb:
    Pillow refuses to open it)."""
    data = bytearray(image_bytes(size=(1, 1)))
    data[16:24] = struct.pack(">II", width, height)  # IHDR: width, height
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))  # IHDR's checksum
    return bytes(data)
