"""What the game's live message becomes with one more delivery, worked out before any of
it is sent (cogs/outlet_live.py sends it, bench/live_board_counts.py counts it).

A game keeps one channel message up to date: the lines of the turn under way, whose
turn it is, the board and the controls. A delivery edits it in place; a new one is
posted only when the story needs it: a new chapter (Game.chapter), the end of the game,
the old one deleted, or a new turn's lines that do not fit on it. A turn stays on its
message (a fight revealed card by card): when its lines outgrow it, the oldest, shown
already, give way to one line pointing to `/game log`. No line is cut before it was
shown: a new turn's lines that do not fit one message go before it as plain messages,
split at line breaks (a line longer than a message at word boundaries). A message that
gives its controls to a new one loses its "your move" line too. A board the message
already shows is not uploaded again. Every decision here is a function of the stored
live message and the post, so a delivery sent again after a crash decides (and sends)
the same; and the stored live message remembers the last event whose line it showed
(`through`), so a delivery that carries those events again, under another key, does not
repeat them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import headlines, mentions
from bot.delivery import Post, board_hash
from bot.discord_limits import CONTENT_MAX
from bot.store import OVER, LiveMessage, Table
from bot.texts import listed, say

LIMIT = CONTENT_MAX  # our longest message, a margin under Discord's 2,000
ROOMY = LIMIT // 2  # a live message that starts after overflow holds this much at most


def footer(table: Table, post: Post, *, private_turn: bool = False,
           paused_by: str = "") -> str:
    """Who is to act, after the lines. On a private turn the channel only learns who is
    playing, never their options. A paused game waits for a moderator, not a player:
    it says so, and who paused it (`paused_by`, a mention; empty: not known), in the
    place of "your move", which would ask for a move the table refuses."""
    if table.paused and table.status != OVER:
        who = paused_by or say("live.a_moderator")
        return "\n" + mentions.BOOK.link(say("live.paused", who=who), table.guild_id)
    if post.prompt is not None:
        prompt = post.prompt
        who = f"<@{prompt.user_id}>" if prompt.user_id else prompt.name
        tail = "\n" + say("live.from_dms" if private_turn else "live.your_move", who=who)
        others = [f"<@{o.user_id}>" for o in prompt.others
                  if o.user_id and o.user_id != prompt.user_id]
        if others and table.status != OVER:
            tail = "\n" + say("live.others_too",
                               others=listed(list(dict.fromkeys(others)))) + tail
        return tail
    if table.status == OVER:
        return "\n" + mentions.BOOK.link(say("live.over"), table.guild_id)
    return ""


def jump_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A link to a message: the turn's ping and a turn timer's reminder point at where
    the turn's controls are (the live message; a private turn's DM prompt). A DM is
    in no server: "@me"."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def post_lines(post: Post, through: int = 0, *, headlines: bool = False) -> list[str]:
    """The delivery's public lines (with `headlines`, those the live message shows:
    bot/headlines.py), but those of events up to `through` (shown already), then whom a
    DM did not reach."""
    lines = post.lines
    if headlines and len(post.headlines) == len(post.lines):
        keep = post.headlines
    else:
        keep = [True] * len(lines)
    seqs = post.seqs if len(post.seqs) == len(post.lines) else [through + 1] * len(lines)
    lines = [line for line, seq, shown in zip(lines, seqs, keep, strict=True)
             if shown and (not through or seq > through)]
    return [*lines, *failed_lines(post)]


def failed_lines(post: Post) -> list[str]:
    return [mentions.BOOK.link(say("dm_failed", mention=f"<@{u}>")) for u in post.dm_failed]


def glance(lines: list[str], failed: list[str], tail: str, *, told: bool = True,
           newest: bool = True, whole: frozenset[str] = frozenset()) -> list[str]:
    """The headlines the live message keeps with this footer: at most headlines.LINES
    lines in all, but whom a DM missed and the lines told whole (`whole`: a rumble's
    score) always among them; of the rest the turn's newest (`newest`), or the first
    and newest of one delivery. A post whose lines were not sorted into headlines and
    detail (`told` False: not made by delivery.plan) keeps them all."""
    if not told:
        return lines
    said = [line for line in lines if line not in failed]
    pinned = [n for n, line in enumerate(said) if line in whole]
    rest = [n for n in range(len(said)) if n not in pinned]
    room = max(1, headlines.LINES - tail.count("\n")) - len(failed) - len(pinned)
    chosen = [rest[n] for n in headlines.choose([said[n] for n in rest], room,
                                                newest=newest)]
    return [said[n] if n in pinned else headlines.short(said[n])
            for n in sorted([*pinned, *chosen])] + failed


def split_line(line: str, limit: int = LIMIT) -> list[str]:
    """One line as pieces of at most `limit`, broken between words (mid-word only for a
    word longer than a message)."""
    pieces: list[str] = []
    while len(line) > limit:
        cut = line.rfind(" ", 1, limit + 1)
        if cut <= 0:
            pieces.append(line[:limit])
            line = line[limit:]
        else:
            pieces.append(line[:cut])
            line = line[cut + 1:]
    pieces.append(line)
    return pieces


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """Split a long text into messages Discord accepts, at line breaks where possible
    (a team's secret book can be longer than one message); blank parts are dropped,
    since Discord refuses an empty message."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        for piece in split_line(line, limit):
            if current and len(current) + 1 + len(piece) > limit:
                out.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    out.append(current)
    return [part for part in out if part.strip()] or ["…"]


def fit(lines: list[str], tail: str, limit: int = LIMIT) -> tuple[list[str], list[str]]:
    """(the lines that do not fit, the newest lines that fit with the tail in one message)."""
    room = limit - len(tail)
    shown: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = len(line) + (1 if shown else 0)
        if used + cost > room:
            break
        shown.insert(0, line)
        used += cost
    return lines[:len(lines) - len(shown)], shown


def text_of(shown: list[str], tail: str) -> str:
    return ("\n".join(shown) + tail).strip() or "…"


@dataclass(frozen=True)
class Step:
    """What one delivery does to the live message."""

    fresh: bool  # post a new live message (and take the old one's controls off)
    why: str  # why fresh: "first", "gone", "end", "chapter", "long" ("" for an edit)
    text: str  # the live message's content
    overflow: list[str]  # plain messages sent before a fresh one: lines that did not fit
    attach: bool  # send the board with it
    close: str | None  # the old message's last words, no "your move" (None: as it is)
    # The turn changed and its lines overflow: the old message, whose lines would be
    # replaced anyway, becomes the first of `overflow` (its board and controls off).
    reuse: bool
    ping: bool  # the turn passed to another human: ping them, delete the last ping
    live: LiveMessage  # what it shows afterwards (message and ping ids still to fill in)


def step(live: LiveMessage | None, table: Table, post: Post, *, private_turn: bool = False,
         ping_user: int | None = None, gone: bool = False, paused_by: str = "") -> Step:
    """The live message after `post`. `live`: what it shows now (None: no message yet);
    `gone`: it was deleted; `ping_user`: the human this delivery asks to act in the
    channel (None for an AI, nobody, a turn played from DMs, or a paused game: the
    resume then pings them, as a turn's start does); `paused_by`: see `footer`."""
    new_lines = post_lines(post, live.through if live is not None else 0, headlines=True)
    failed = failed_lines(post)
    told = bool(post.headlines) and len(post.headlines) == len(post.lines)
    whole = frozenset(line for line, w in zip(post.lines, post.whole, strict=False) if w)
    tail = footer(table, post, private_turn=private_turn, paused_by=paused_by)
    if live is not None and post.key and live.delivery == post.key:
        # This delivery was sent and remembered before a crash: the same edit again,
        # or, the message deleted since, its lines anew.
        if not gone:
            return Step(fresh=False, why="", text=text_of(live.lines, tail), overflow=[],
                        attach=False, close=None, reuse=False, ping=False, live=live)
        new_lines = []
    trimmed = say("live.trimmed")
    base = [line for line in live.lines if line != trimmed] if live is not None else []
    fresh = live is None or gone or table.status == OVER or post.chapter != live.chapter
    same_turn = live is not None and post.chapter == live.chapter \
        and post.turn == live.turn and table.status != OVER
    close = None
    spilled: list[str] = []  # a chapter's end too long for the old message
    if live is not None and fresh and not gone and table.status == OVER:
        # its controls go, and so does its "your move"; a turn that had said nothing yet
        # points at the end below rather than closing to a bare "…"
        close = text_of(live.lines, "") if live.lines else say("live.ended_below")
    if live is not None and fresh and not gone and table.status != OVER:
        # A new chapter: what led to it ends the old message, read in order above the
        # new one, which starts with no lines. Every headline: a chapter's end (the
        # haunt revealed, a rumble scored) is told whole, once a chapter; lines too long
        # for the old message are told as the live message tells them (their first
        # sentence), and what still does not fit goes between the two messages as plain
        # messages. (Cut to a glance, AI turns around a haunt revealed on an AI's turn
        # lost the reveal and the traitor's name.)
        ending = [*live.lines, *new_lines]
        brief = [*live.lines, *(headlines.short(line) for line in new_lines)]
        if not fit(ending, "")[0]:
            close = text_of(ending, "")
        elif not fit(brief, "")[0]:
            close = text_of(brief, "")
        else:
            close, spilled = text_of(live.lines, ""), brief[len(live.lines):]
        new_lines = []
        close = close if ending else None
    if table.status != OVER:  # the end is told whole: who won, and why
        new_lines = glance(new_lines, failed, tail, told=told, newest=False, whole=whole)
    lines = new_lines
    if same_turn:
        lines = glance([*base, *new_lines], failed, tail, told=told, whole=whole)
    overflow, shown = fit(lines, tail)
    if overflow and same_turn:  # the turn so far no longer fits: it stays on its message
        # (a fight told card by card), whose oldest lines, shown already, give way to a
        # line saying so (/game log keeps them all); unless this delivery's own lines
        # do not fit, which go on anew, nothing cut, while the old message keeps its own
        _, kept = fit(lines, f"\n{trimmed}{tail}")
        if len(kept) >= len(new_lines):
            overflow, shown = [], [trimmed, *kept]
        else:
            fresh, lines = True, new_lines
            overflow, shown = fit(lines, tail)
            close = text_of(live.lines if live is not None else [], "")
    if overflow:  # lines sent before it, so it must be new, and it keeps room to go on
        fresh = True  # in place: the turn's next lines fit, the next step is an edit
        overflow, shown = fit(lines, tail, ROOMY)
    why = next((w for w, c in (("first", live is None), ("gone", gone),
                               ("end", table.status == OVER),
                               ("chapter", live is not None and post.chapter != live.chapter),
                               ("long", fresh)) if c), "")
    digest = post.image_hash or board_hash(post.image)
    if fresh or live is None:
        attach = True
    else:
        # (a message that showed a picture beside its board, as the bot once made them,
        # gets its board anew, which takes the other off)
        attach = post.image is not None and (digest != live.board_hash or live.extras)
    shows_board = digest if post.image is not None or live is None or fresh \
        else live.board_hash
    previous_user = live.ping_user if live is not None else None
    ping = ping_user is not None and ping_user != previous_user and table.status != OVER
    return Step(
        fresh=fresh,
        why=why,
        text=text_of(shown, tail),
        overflow=chunks("\n".join([*spilled, *overflow]))
        if any(x.strip() for x in [*spilled, *overflow]) else [],
        attach=attach,
        close=close,
        reuse=why == "long" and not same_turn and bool(overflow),
        ping=ping,
        live=LiveMessage(
            message_id=0 if fresh or live is None else live.message_id,
            chapter=post.chapter, turn=post.turn, board_hash=shows_board, lines=shown,
            delivery=post.key,
            extras=False if attach else bool(live and live.extras),
            alt=post.alt if post.image is not None or live is None else live.alt,
            ping_id=live.ping_id if live is not None else None,
            ping_user=ping_user if table.status != OVER else None,
            dm_prompt=live.dm_prompt if live is not None else None,
            through=max([live.through if live is not None else 0, *post.seqs])),
    )
