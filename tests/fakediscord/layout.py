"""Components v2 messages (the IS_COMPONENTS_V2 flag) as Discord takes them: the rules
that depend on the message being edited, and the media a layout shows.

Why a module: the schema (spec_check.py) and the body-only limits (limits.py) cannot see
the message an edit changes. Discord's docs (developers/resources/message.mdx, Create
and Edit Message; developers/components/reference.mdx) say:

- "When the flag IS_COMPONENTS_V2 is set, the message can only contain components.
  Providing content, embeds, sticker_ids, poll ... will fail with a 400": on an edit
  that sets the flag, "any of the used content, embeds, sticker_ids, or poll fields must
  have their values reset to empty" (content null, embeds []).
- "the IS_COMPONENTS_V2 flag can only be set": once a message has it, an edit cannot
  take it off.
- Text displays, sections, thumbnails, media galleries, files, separators and
  containers exist only in such a message.
- "Attachments won't show by default - they must be exposed through components": a media
  gallery item (or a thumbnail, or a file) names an upload as `attachment://<filename>`.
  The fake refuses a name that is not among the message's attachments after the request
  (its new uploads and the ones it keeps), since Discord would show nothing there, and
  resolves the ones it finds as Discord does, into the attachment's URL and id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .limits import IS_COMPONENTS_V2, Path, Violation, invalid, walk_components
from .models import FakeMessage, Json

V2_ONLY = frozenset({9, 10, 11, 12, 13, 14, 17})  # section ... container
TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE = 10, 11, 12, 13
ATTACHMENT = "attachment://"
LEGACY_CODE = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")


def is_v2(flags: int) -> bool:
    return bool(flags & IS_COMPONENTS_V2)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == []


def media_of(components: list[Any], at: Path = ("components",)) -> Iterator[tuple[Path, Json]]:
    """Every unfurled media item a layout names (thumbnails, gallery items, files), with
    where it sits."""
    for path, comp in walk_components(components, at):
        kind = comp.get("type")
        if kind == THUMBNAIL and isinstance(comp.get("media"), dict):
            yield (*path, "media"), comp["media"]
        elif kind == FILE and isinstance(comp.get("file"), dict):
            yield (*path, "file"), comp["file"]
        elif kind == MEDIA_GALLERY:
            for n, item in enumerate(comp.get("items") or []):
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    yield (*path, "items", n, "media"), item["media"]


def text_of(components: list[Any]) -> str:
    """The words of a layout's text displays, in order: what Discord shows (and reads
    mentions from) in place of a v2 message's content."""
    return "\n".join(str(c.get("content") or "") for _, c in walk_components(components, ())
                     if c.get("type") == TEXT_DISPLAY)


def violations(old: FakeMessage | None, body: Json, names_after: list[str]) -> list[Violation]:
    """What Discord refuses in this create (`old` None) or edit of `old`, given the file
    names the message holds once the request is applied."""
    asked = int(body.get("flags") or 0)
    before = old.flags if old is not None else 0
    found: list[Violation] = []
    if is_v2(before) and "flags" in body and not is_v2(asked):
        found.append(invalid(("flags",), "The IS_COMPONENTS_V2 flag cannot be removed."))
    v2 = is_v2(before) or is_v2(asked)
    components = body.get("components")
    if v2:
        for name in LEGACY_FIELDS:
            if name in body and not _empty(body[name]):
                found.append(Violation((name,), LEGACY_CODE,
                                       f"'{name}' cannot be used with IS_COMPONENTS_V2."))
        if old is not None and not is_v2(before):  # the flag set by this edit: the old
            for name, value in (("content", old.content), ("embeds", old.embeds)):
                if not _empty(value) and not (name in body and _empty(body[name])):
                    found.append(Violation((name,), LEGACY_CODE,
                                           f"'{name}' must be reset to set IS_COMPONENTS_V2."))
    elif isinstance(components, list):
        for path, comp in walk_components(components, ("components",)):
            if comp.get("type") in V2_ONLY:
                found.append(invalid(path, f"Component type {comp.get('type')} needs the "
                                           "IS_COMPONENTS_V2 flag."))
    if isinstance(components, list):
        for path, media in media_of(components):
            url = str(media.get("url") or "")
            if url.startswith(ATTACHMENT) and url[len(ATTACHMENT):] not in names_after:
                found.append(invalid((*path, "url"), f"No attachment named "
                                                     f"{url[len(ATTACHMENT):]!r} here."))
    return found


def resolve(components: list[Json], attachments: list[tuple[int, str, str]],
            url_of: Callable[[int], str]) -> None:
    """Turn each `attachment://<filename>` into the attachment Discord stored, in place:
    its URL, and its id (a test reads which upload a gallery shows through it)."""
    by_name = {name: (att_id, ctype) for att_id, name, ctype in attachments}
    for _, media in media_of(components):
        url = str(media.get("url") or "")
        found = by_name.get(url[len(ATTACHMENT):]) if url.startswith(ATTACHMENT) else None
        if found is None:
            continue
        media.clear()
        media.update({"url": url_of(found[0]), "proxy_url": url_of(found[0]),
                      "content_type": found[1], "attachment_id": str(found[0]), "flags": 0})
