#!/usr/bin/env python3
"""Checks every golden request body in tests/fixtures/requests/ with the providers' official
Python SDKs (the versions tests/sdk/requirements.txt pins).

For each body it tells the protocol from the body's shape and from the file's name (both must
agree), validates the body against the SDK's own request type, unknown keys forbidden, and then
has the SDK's real client build the request over a mock transport and checks the JSON it would
send is our body, nothing dropped, added or changed. It prints one line per body,
`ok   <file>: <what was checked>` or `FAIL <file>: <reason>`, then self-checks proving that the
checker rejects bodies the providers would not take, and exits 1 if anything failed or if fewer
bodies were checked than there are files. Nothing here reaches the network.
"""

from __future__ import annotations

import base64
import collections.abc
import copy
import json
import re
import sys
import traceback
import warnings
from importlib.metadata import version
from pathlib import Path
from typing import Any, Callable, List

import anthropic
import httpx  # what the ollama package's client is built on
import httpx2  # what the openai, anthropic and google-genai clients are built on (they type-check it)
import ollama
import openai
import pydantic
from anthropic.types import message_create_params as anthropic_params
from ollama._types import ChatRequest as OllamaChatRequest
from google import genai
from google.genai import types as gtypes
from openai.types.chat import completion_create_params as chat_params
from openai.types.responses import response_create_params as responses_params

ROOT = Path(__file__).resolve().parents[2]
BODIES = ROOT / "tests" / "fixtures" / "requests"
FAKE_KEY = "sk-test-fake"

# ---------------------------------------------------------------------------------------------
# Vendors' documented extra fields on the OpenAI Chat Completions protocol. Exactly these are set
# aside before the strict check against openai's CompletionCreateParamsStreaming; everything else
# must be a field the openai SDK knows. "top" are request-level fields (the SDK sends them through
# extra_body); "assistant" are fields of assistant messages (the SDK sends message fields as given).
VENDOR_EXTRAS: dict[str, dict[str, set[str]]] = {
    # OpenAI itself: none.
    "openai": {"top": set(), "assistant": set()},
    # DeepSeek (api-docs.deepseek.com, "Thinking Mode"): `thinking: {"type": "enabled"}` switches
    # thinking on; an assistant message carries its `reasoning_content`, which must be sent back
    # in the turns of a tool call.
    "deepseek": {"top": {"thinking"}, "assistant": {"reasoning_content"}},
    # Moonshot (Kimi's thinking models, platform.moonshot.ai): the assistant message's
    # `reasoning_content`, kept in the context across tool calls.
    "moonshot": {"top": set(), "assistant": {"reasoning_content"}},
    # MiniMax (M2, OpenAI-compatible API): `reasoning_split: true` returns the thinking apart in
    # `reasoning_details`, which the assistant message then carries back.
    "minimax": {"top": {"reasoning_split"}, "assistant": {"reasoning_details"}},
    # OpenRouter (openrouter.ai/docs, "Reasoning Tokens"): `reasoning: {effort|max_tokens|...}`;
    # an assistant message carries its `reasoning_details` back ("Preserving reasoning blocks").
    "openrouter": {"top": {"reasoning"}, "assistant": {"reasoning_details"}},
    # GitHub Copilot's chat API, which has no public reference: the fields its replies carry the
    # reasoning in, which it wants back on the assistant message, `reasoning_text` and the opaque
    # signature `reasoning_opaque`.
    "copilot": {"top": set(), "assistant": {"reasoning_text", "reasoning_opaque"}},
}

# Which vendor a Chat body is for, by the file's name; the model must not say otherwise.
CHAT_VENDOR_BY_NAME = [
    (r"^copilot_", "copilot"),
    (r"^openrouter_", "openrouter"),
    (r"^minimax_", "minimax"),
    (r"^kimi_", "moonshot"),
    (r"(^|_)deepseek_", "deepseek"),
    (r"(^|_)chat(_|$)", "openai"),
]
VENDOR_BY_MODEL = [
    (r"^deepseek-", "deepseek"),
    (r"^kimi-", "moonshot"),
    (r"^MiniMax-", "minimax"),
    (r"^[a-z0-9-]+/", "openrouter"),
    (r"^(o\d|gpt-|chatgpt-)", "openai"),
]
# Copilot serves other makers' models under their own names.
VENDORS_OF_OTHERS_MODELS = {"copilot"}

# The protocol a file's name says (the brief of tests/fixtures/requests/).
PROTOCOL_BY_NAME = [
    (r"^copilot_", "chat"),  # copilot_gemini_*: Copilot's Chat API serving a Gemini model
    (r"gemini", "gemini"),
    (r"ollama", "ollama"),
    (r"^chat_", "chat"),  # chat_o3_after_responses_turn_*: Chat, after a turn on Responses
    (r"responses", "responses"),
    (r"^(anthropic_|attachments_anthropic$|seed001_anthropic_|first_turn_anthropic_)", "anthropic"),
    (r"(_chat_|^attachments_chat$|^deepseek_|^kimi_|^minimax_|^openrouter_"
     r"|^seed001_deepseek_|^switch_anthropic_to_deepseek_v4$|^first_turn_deepseek_)", "chat"),
]
ANTHROPIC_BLOCK_TYPES = {"thinking", "redacted_thinking", "tool_use", "tool_result", "image",
                         "document", "search_result", "server_tool_use"}


class Rejected(Exception):
    """The SDK, or the comparison with what it sends, rejects the body."""


# ----------------------------------------------------------------------------- small helpers

def load_body(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"^---[ \t]*$\n?", text, maxsplit=2, flags=re.M)
    if len(parts) != 3 or parts[0].strip():
        raise Rejected("not an insta snapshot (a YAML header between --- lines, then JSON)")
    snap = json.loads(parts[2])
    if not isinstance(snap, dict) or not isinstance(snap.get("body"), dict):
        raise Rejected('the snapshot has no JSON object "body"')
    return snap["body"]


def fmt_path(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(body)"


def label_positions(root, loc) -> set[int]:
    """Which items of a pydantic error location name a union member (or a wrapper such as
    `list[...]`) rather than a field or an index of the input: walk the input along the location."""
    labels, cur = set(), root
    for i, item in enumerate(loc):
        if isinstance(item, str) and (item[:1].isupper() or "[" in item
                                      or item in {"str", "int", "bool", "float", "dict", "list"}):
            labels.add(i)  # a member class or a wrapper
        elif i + 1 == len(loc):
            break  # the field the error is about, present or missing
        elif isinstance(cur, dict) and cur.get("type") == item:
            labels.add(i)  # the tag of a union told apart by "type"
        elif isinstance(cur, dict) and item in cur:
            cur = cur[item]
        elif isinstance(cur, list) and isinstance(item, int) and 0 <= item < len(cur):
            cur = cur[item]
        else:
            labels.add(i)
    return labels


def prune(errs: list[dict], root) -> list[dict]:
    """Of a union's members, keep the errors of the one the input meant: not one whose `type` or
    `role` differs or that wants another kind of value, and of those the one with fewest errors.
    When every member is ruled out so, say what the tag may be."""
    plain, groups = [], {}
    for e in errs:
        labels = label_positions(root, e["loc"])
        if not labels:
            plain.append(e)
            continue
        i = min(labels)
        groups.setdefault(tuple(e["loc"][:i]), {}).setdefault(e["loc"][i], []).append(e)
    out = list(plain)
    for prefix, members in groups.items():
        n = len(prefix)
        scored = []
        for label, es in members.items():
            ruled_out = any(
                (len(e["loc"]) == n + 2 and e["loc"][-1] in ("type", "role") and e["type"] == "literal_error")
                or (len(e["loc"]) == n + 1 and (e["type"].endswith("_type") or e["type"] in (
                    "literal_error", "is_instance_of", "union_tag_invalid")))
                for e in es)
            inner = prune([dict(e, loc=tuple(e["loc"][:n]) + tuple(e["loc"][n + 1:])) for e in es], root)
            scored.append((ruled_out, len(inner), label, inner, es))
        scored.sort(key=lambda t: (t[0], t[1]))
        ruled_out, _, _, inner, _ = scored[0]
        if not ruled_out:
            out += inner
            continue
        tags, got = set(), None
        for *_, es in scored:
            for e in es:
                if e["type"] == "literal_error" and len(e["loc"]) == n + 2 and e["loc"][-1] in ("type", "role"):
                    tags.add((e["loc"][-1], (e.get("ctx") or {}).get("expected", "")))
                    got = e.get("input")
        if tags:
            key = sorted(tags)[0][0]
            out.append({"loc": prefix + (key,), "type": "no_member",
                        "msg": f"{short(got)} is none of the SDK's: " + cut_list(sorted(t for _, t in tags))})
        else:
            out.append({"loc": prefix, "type": "no_member",
                        "msg": "no member of the SDK's union takes it: " + "; ".join(
                            f"{lbl}: {e['msg']}" for _, _, lbl, _, es in scored[:3] for e in es[:1])})
    return out


def explain(err: pydantic.ValidationError, root, prefix=(), skip=0) -> str:
    """The errors that matter of a ValidationError over ROOT, short, with the paths of our body
    (PREFIX before them, their first SKIP items left out)."""
    lines: list[str] = []
    for e in prune(err.errors(include_url=False), root):
        loc = [p for i, p in enumerate(e["loc"]) if i not in label_positions(root, e["loc"])][skip:]
        line = f"{fmt_path(tuple(prefix) + tuple(loc))}: {e['msg']}"
        if e["type"] in ("extra_forbidden", "literal_error", "string_type", "int_type", "bool_type"):
            line += f" (got {short(e.get('input'))})"
        if line not in lines:
            lines.append(line)
    return "; ".join(lines[:4]) + (f"; and {len(lines) - 4} more" if len(lines) > 4 else "")


def cut_list(items: list[str], most=8) -> str:
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def short(v) -> str:
    s = json.dumps(v, ensure_ascii=False, default=str) if not isinstance(v, str) else repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def materialize(value, source, path=()):
    """pydantic validates an `Iterable[X]` field lazily (it returns a ValidatorIterator, checking
    the items only when iterated), and the SDKs type every list as Iterable: walk the result and
    iterate everything, so each item is really checked."""
    if isinstance(value, dict):
        return {k: materialize(v, sub(source, k), path + (k,)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [materialize(v, sub(source, i), path + (i,)) for i, v in enumerate(value)]
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return value
    if isinstance(value, collections.abc.Iterator):
        try:
            items = list(value)
        except pydantic.ValidationError as e:
            raise Rejected(explain(e, source, path)) from None
        return [materialize(v, sub(source, i), path + (i,)) for i, v in enumerate(items)]
    return value


def sub(source, key):
    """SOURCE[KEY] when there is one."""
    if isinstance(source, dict):
        return source.get(key)
    if isinstance(source, list) and isinstance(key, int) and 0 <= key < len(source):
        return source[key]
    return None


def b64bytes(s: str) -> bytes:
    """The bytes of base64 text in either alphabet, padded or not: what Google's JSON mapping of a
    bytes field accepts. Raises ValueError on anything else."""
    t = s.replace("-", "+").replace("_", "/")
    return base64.b64decode(t + "=" * (-len(t) % 4), validate=True)


def differences(ours, sent, path=(), as_bytes=frozenset()) -> list[str]:
    """How SENT (what the SDK would send) differs from OURS, as readable lines. At the paths in
    AS_BYTES (bytes fields, base64 in JSON) the bytes are compared, not the text."""
    if path in as_bytes and isinstance(ours, str) and isinstance(sent, str):
        try:
            same = b64bytes(ours) == b64bytes(sent)
        except ValueError:
            same = False
        return [] if same else [f"{fmt_path(path)} holds other bytes: {short(sent)}, ours {short(ours)}"]
    if isinstance(ours, dict) and isinstance(sent, dict):
        out = []
        for k in ours:
            if k not in sent:
                out.append(f"{fmt_path(path + (k,))} dropped")
            else:
                out += differences(ours[k], sent[k], path + (k,), as_bytes)
        out += [f"{fmt_path(path + (k,))} added ({short(sent[k])})" for k in sent if k not in ours]
        return out
    if isinstance(ours, list) and isinstance(sent, list):
        if len(ours) != len(sent):
            return [f"{fmt_path(path)} has {len(sent)} items, ours {len(ours)}"]
        out = []
        for i, (a, b) in enumerate(zip(ours, sent)):
            out += differences(a, b, path + (i,), as_bytes)
        return out
    if type(ours) is not type(sent) and not (isinstance(ours, (int, float)) and isinstance(sent, (int, float))
                                             and not isinstance(ours, bool) and not isinstance(sent, bool)):
        return [f"{fmt_path(path)} is {short(sent)}, ours {short(ours)}"]
    if ours != sent:
        return [f"{fmt_path(path)} is {short(sent)}, ours {short(ours)}"]
    return []


def must_match(ours, sent, who: str, as_bytes=frozenset()):
    diff = differences(ours, sent, (), as_bytes)
    if diff:
        raise Rejected(f"{who} would not send our body: " + "; ".join(diff[:4])
                       + (f"; and {len(diff) - 4} more" if len(diff) > 4 else ""))


def strict_adapter(typed_dict) -> pydantic.TypeAdapter:
    """A TypeAdapter over one of the SDK's request TypedDicts that forbids unknown keys at every
    level. (pydantic takes no config for a bare TypedDict; one wrapped in a list inherits it, and so
    do all the TypedDicts nested in it.)"""
    return pydantic.TypeAdapter(List[typed_dict], config=pydantic.ConfigDict(extra="forbid"))


def validate_strict(adapter: pydantic.TypeAdapter, body: dict, typename: str) -> None:
    try:
        validated = adapter.validate_python([body])[0]
    except pydantic.ValidationError as e:
        raise Rejected(f"not a valid {typename}: " + explain(e, [body], skip=1)) from None
    try:
        validated = materialize(validated, body)
    except Rejected as e:
        raise Rejected(f"not a valid {typename}: {e}") from None
    # Lax validation may have coerced a value (a "1" taken as 1): that would be a wrong type.
    diff = differences(body, validated)
    if diff:
        raise Rejected(f"{typename} takes it only by changing it: " + "; ".join(diff[:4]))


class Capture:
    """A mock transport's handler: keeps the request the SDK built, answers like the server."""

    def __init__(self, lib, content_type: str, reply: bytes):
        self.lib, self.content_type, self.reply = lib, content_type, reply
        self.requests: list = []

    def __call__(self, request):
        self.requests.append(request)
        return self.lib.Response(200, headers={"content-type": self.content_type}, content=self.reply)

    def body(self, path_end: str) -> dict:
        if len(self.requests) != 1:
            raise Rejected(f"the SDK made {len(self.requests)} requests, not one")
        req = self.requests[0]
        if not req.url.path.endswith(path_end):
            raise Rejected(f"the SDK posted to {req.url.path}, not …{path_end}")
        return json.loads(req.content)


def sse_capture() -> Capture:
    return Capture(httpx2, "text/event-stream", b"")


def close(stream) -> None:
    if hasattr(stream, "close"):
        stream.close()


# ----------------------------------------------------------------------------- protocols

def protocol_by_shape(body: dict) -> str | None:
    if "contents" in body:
        return "gemini"
    if "input" in body and "messages" not in body:
        return "responses"
    msgs = body.get("messages")
    if not isinstance(msgs, list):
        return None
    roles = {m.get("role") for m in msgs if isinstance(m, dict)}
    blocks = {b.get("type") for m in msgs if isinstance(m, dict) and isinstance(m.get("content"), list)
              for b in m["content"] if isinstance(b, dict)}
    if "think" in body or "keep_alive" in body or any(
            isinstance(m, dict) and (isinstance(m.get("images"), list) or isinstance(m.get("thinking"), str))
            for m in msgs):
        return "ollama"
    if roles <= {"user", "assistant"} and "max_tokens" in body and (
            "system" in body or blocks & ANTHROPIC_BLOCK_TYPES or "budget_tokens" in (body.get("thinking") or {})):
        return "anthropic"
    if "system" not in body and (roles & {"system", "developer", "tool"} or "stream_options" in body
                                 or all(isinstance(m.get("content"), str) for m in msgs if isinstance(m, dict))):
        return "chat"
    return None


def protocol_by_name(stem: str) -> str | None:
    for pattern, proto in PROTOCOL_BY_NAME:
        if re.search(pattern, stem):
            return proto
    return None


def chat_vendor(stem: str, model: str) -> str:
    by_name = next((v for p, v in CHAT_VENDOR_BY_NAME if re.search(p, stem)), None)
    by_model = next((v for p, v in VENDOR_BY_MODEL if re.search(p, model)), None)
    if by_name is None:
        raise Rejected(f"cannot tell whose Chat API this is for (model {model!r}): no vendor in the name")
    if by_model and by_model != by_name and by_name not in VENDORS_OF_OTHERS_MODELS:
        raise Rejected(f"the name says {by_name} but model {model!r} is {by_model}'s")
    return by_name


def set_aside(body: dict, vendor: str) -> tuple[dict, dict, list[str]]:
    """Our body less the vendor's documented extras; the request-level extras; what was set aside."""
    extras = VENDOR_EXTRAS[vendor]
    standard = copy.deepcopy(body)
    top = {k: standard.pop(k) for k in list(standard) if k in extras["top"]}
    found = collections.Counter()
    for m in standard.get("messages") or []:
        if isinstance(m, dict) and m.get("role") == "assistant":
            for k in list(m):
                if k in extras["assistant"]:
                    del m[k]
                    found[k] += 1
    said = [f"{k}" for k in top] + [f"{k} on {n} message{'s' * (n > 1)}" for k, n in found.items()]
    return standard, top, said


CHAT_ADAPTER = strict_adapter(chat_params.CompletionCreateParamsStreaming)
RESPONSES_ADAPTER = strict_adapter(responses_params.ResponseCreateParamsStreaming)
ANTHROPIC_ADAPTER = strict_adapter(anthropic_params.MessageCreateParamsStreaming)


def openai_client(capture: Capture) -> openai.OpenAI:
    return openai.OpenAI(api_key=FAKE_KEY, base_url="http://sdk.invalid/v1", max_retries=0,
                         http_client=httpx2.Client(transport=httpx2.MockTransport(capture)))


def check_chat(stem: str, body: dict) -> str:
    vendor = chat_vendor(stem, str(body.get("model", "")))
    standard, top, said = set_aside(body, vendor)
    validate_strict(CHAT_ADAPTER, standard, "openai CompletionCreateParamsStreaming")
    capture = sse_capture()
    # The messages go as they are, vendor fields included: the SDK sends message fields as given.
    kwargs = dict(standard, messages=body["messages"])
    try:
        close(openai_client(capture).chat.completions.create(**kwargs, extra_body=top or None))
    except Exception as e:
        raise Rejected(f"openai's chat.completions.create refuses it: {type(e).__name__}: {e}") from None
    must_match(body, capture.body("/chat/completions"), f"openai {version('openai')}")
    aside = f" ({vendor}'s {', '.join(said)} set aside)" if said else (
        "" if vendor == "openai" else f" ({vendor}: no extra field)")
    return (f"OpenAI Chat{aside}: a valid CompletionCreateParamsStreaming, no unknown key; "
            f"openai {version('openai')} sends it unchanged")


def default_image_detail(value) -> int:
    """openai's ResponseInputImageParam marks `detail` Required, being generated from OpenAI's
    OpenAPI spec, while the SDK's own doc of the field says "Defaults to `auto`" and OpenAI's
    images guide sends input_image without one. For the type check alone, an input_image without
    detail gets that documented default (what the SDK sends is still compared with our body as it
    is). Returns how many it gave it to."""
    n = 0
    if isinstance(value, dict):
        if value.get("type") == "input_image" and "detail" not in value:
            value["detail"] = "auto"
            n += 1
        for v in value.values():
            n += default_image_detail(v)
    elif isinstance(value, list):
        for v in value:
            n += default_image_detail(v)
    return n


def check_responses(stem: str, body: dict) -> str:
    typed = copy.deepcopy(body)
    defaulted = default_image_detail(typed.get("input"))
    try:
        validate_strict(RESPONSES_ADAPTER, typed, "openai ResponseCreateParamsStreaming")
    except Rejected as e:
        raise Rejected(str(e) + (" (input_image detail taken as its default, auto)" if defaulted else "")) from None
    capture = sse_capture()
    try:
        close(openai_client(capture).responses.create(**body))
    except Exception as e:
        raise Rejected(f"openai's responses.create refuses it: {type(e).__name__}: {e}") from None
    must_match(body, capture.body("/responses"), f"openai {version('openai')}")
    items = collections.Counter(i.get("type", "message") for i in body.get("input") or [] if isinstance(i, dict))
    note = f"; {defaulted} input_image without detail, which the SDK type requires and the API defaults to auto" \
        if defaulted else ""
    return (f"OpenAI Responses ({', '.join(f'{n} {t}' for t, n in items.items())}{note}): a valid "
            f"ResponseCreateParamsStreaming, no unknown key; openai {version('openai')} sends it unchanged")


def check_anthropic(stem: str, body: dict) -> str:
    validate_strict(ANTHROPIC_ADAPTER, body, "anthropic MessageCreateParamsStreaming")
    capture = sse_capture()
    client = anthropic.Anthropic(api_key=FAKE_KEY, base_url="http://sdk.invalid", max_retries=0,
                                 http_client=httpx2.Client(transport=httpx2.MockTransport(capture)))
    try:
        close(client.messages.create(**body))
    except Exception as e:
        raise Rejected(f"anthropic's messages.create refuses it: {type(e).__name__}: {e}") from None
    must_match(body, capture.body("/v1/messages"), f"anthropic {version('anthropic')}")
    blocks = collections.Counter(b.get("type") for m in body.get("messages") or []
                                 if isinstance(m.get("content"), list) for b in m["content"])
    return (f"Anthropic Messages ({', '.join(f'{n} {t}' for t, n in sorted(blocks.items()))} blocks): a valid "
            f"MessageCreateParamsStreaming, no unknown key; anthropic {version('anthropic')} sends it unchanged")


# The REST GenerateContentRequest's fields (ai.google.dev/api/generate-content) and the
# google-genai type of each. The model is in the URL, not the body.
GEMINI_FIELDS: dict[str, tuple[Any, bool]] = {  # field: (type, a list of them)
    "contents": (gtypes.Content, True),
    "systemInstruction": (gtypes.Content, False),
    "generationConfig": (gtypes.GenerationConfig, False),
    "tools": (gtypes.Tool, True),
    "toolConfig": (gtypes.ToolConfig, False),
    "safetySettings": (gtypes.SafetySetting, True),
    "cachedContent": (str, False),
}
GEMINI_MODEL = "gemini-3-pro-preview"


def bytes_paths(value, path=()) -> set:
    """Where a google-genai model's python dump holds bytes."""
    if isinstance(value, bytes):
        return {path}
    if isinstance(value, dict):
        return set().union(*(bytes_paths(v, path + (k,)) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(bytes_paths(v, path + (i,)) for i, v in enumerate(value)))
    return set()


def gemini_validate(body: dict) -> tuple[dict, frozenset]:
    """Each field as the google-genai model of it: its BaseModel forbids unknown fields and takes
    the REST camelCase names. Validated from JSON, so bytes fields take base64 as the API does.
    Returns the models and the paths of the body's bytes fields.

    google-genai writes bytes back in base64's URL-safe alphabet, and ours is the standard one:
    Google's JSON mapping of bytes takes either ("Either standard or URL-safe base64 encoding
    with/without paddings are accepted", protobuf's JSON mapping), so bytes fields are compared
    as the bytes they hold."""
    as_bytes: set = set()
    unknown = [k for k in body if k not in GEMINI_FIELDS]
    if unknown:
        raise Rejected(f"not a GenerateContentRequest field: {', '.join(unknown)}")
    models: dict[str, Any] = {}
    for key, value in body.items():
        kind, many = GEMINI_FIELDS[key]
        if kind is str:
            if not isinstance(value, str):
                raise Rejected(f"{key} must be a string")
            models[key] = value
            continue
        items = value if many else [value]
        if many and not isinstance(value, list):
            raise Rejected(f"{key} must be a list")
        out = []
        for i, item in enumerate(items):
            where = (key, i) if many else (key,)
            try:
                model = kind.model_validate_json(json.dumps(item))
            except pydantic.ValidationError as e:
                raise Rejected(f"google-genai {kind.__name__} refuses it: {explain(e, item, where)}") from None
            paths = bytes_paths(model.model_dump(by_alias=True, exclude_none=True), where)
            as_bytes |= paths
            back = model.model_dump(mode="json", by_alias=True, exclude_none=True)
            diff = differences(item, back, where, frozenset(paths))
            if diff:
                raise Rejected(f"google-genai {kind.__name__} reads it otherwise: " + "; ".join(diff[:4]))
            out.append(model)
        models[key] = out if many else out[0]
    return models, frozenset(as_bytes)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


# Where a Gemini request holds JSON of the caller's own (a function's arguments and result, a
# schema's property names), whose keys are not the API's fields.
GEMINI_FREE_FORM = {"args", "response", "properties", "parametersJsonSchema", "responseJsonSchema", "$defs"}


def json_names(value, free=False):
    """google-genai writes some nested objects with their fields' proto names (thinking_budget,
    include_thoughts in thinkingConfig, mime_type in inlineData). Google's JSON mapping takes a
    field by its proto name as well as by its lowerCamelCase JSON name, so the API reads both
    alike: what the SDK sends is compared by JSON name (our body must use the JSON names: the
    round trip through the SDK's types checks that)."""
    if isinstance(value, dict):
        return {(k if free else camel(k)): json_names(v, free or k in GEMINI_FREE_FORM) for k, v in value.items()}
    if isinstance(value, list):
        return [json_names(v, free) for v in value]
    return value


def check_gemini(stem: str, body: dict) -> str:
    models, as_bytes = gemini_validate(body)
    # The real request: google-genai's generate_content_stream, with the generationConfig's fields,
    # the system instruction and tools in its GenerateContentConfig, as a program would call it.
    config: dict[str, Any] = {}
    if "generationConfig" in models:
        for name in models["generationConfig"].model_fields_set:
            if name not in gtypes.GenerateContentConfig.model_fields:
                raise Rejected(f"google-genai's GenerateContentConfig has no {name}")
            config[name] = getattr(models["generationConfig"], name)
    for key, name in (("systemInstruction", "system_instruction"), ("tools", "tools"),
                      ("toolConfig", "tool_config"), ("safetySettings", "safety_settings"),
                      ("cachedContent", "cached_content")):
        if key in models:
            config[name] = models[key]
    if "tools" in models:  # the SDK would otherwise call Python functions itself
        config["automatic_function_calling"] = gtypes.AutomaticFunctionCallingConfig(disable=True)
    capture = sse_capture()
    client = genai.Client(api_key=FAKE_KEY, http_options=gtypes.HttpOptions(
        base_url="http://sdk.invalid/", httpx_client=httpx2.Client(transport=httpx2.MockTransport(capture))))
    try:
        for _ in client.models.generate_content_stream(model=GEMINI_MODEL, contents=models.get("contents", []),
                                                       config=gtypes.GenerateContentConfig(**config)):
            pass
    except Exception as e:
        raise Rejected(f"google-genai's generate_content_stream refuses it: {type(e).__name__}: {e}") from None
    sent = capture.body(f"/models/{GEMINI_MODEL}:streamGenerateContent")
    must_match(body, json_names(sent), f"google-genai {version('google-genai')}", as_bytes)
    parts = collections.Counter()
    for c in body.get("contents", []):
        for p in c.get("parts", []):
            for k in p:
                parts[k] += 1
    return (f"Gemini generateContent ({', '.join(f'{n} {k}' for k, n in sorted(parts.items()))} in parts): "
            f"{', '.join(sorted(body))} valid as google-genai types, no unknown field; "
            f"google-genai {version('google-genai')} sends it unchanged")


def ollama_sends(body: dict) -> dict:
    """What ollama's Client.chat sends for BODY."""
    reply = json.dumps({"model": body.get("model", ""), "created_at": "2025-01-01T00:00:00Z",
                        "message": {"role": "assistant", "content": ""}, "done": True}).encode() + b"\n"
    capture = Capture(httpx, "application/x-ndjson", reply)
    client = ollama.Client(host="http://sdk.invalid:11434", transport=httpx.MockTransport(capture))
    try:
        result = client.chat(**body)
        if body.get("stream"):
            for _ in result:
                pass
    except Exception as e:
        raise Rejected(f"ollama's Client.chat refuses it: {type(e).__name__}: {e}") from None
    sent = capture.body("/api/chat")
    # The ollama client always sends "tools": [] when there are none; the server reads that as
    # no tools, the same as leaving it out.
    if "tools" not in body and sent.get("tools") == []:
        del sent["tools"]
    return sent


OLLAMA_CHAT_ARGS = {"model", "messages", "tools", "stream", "think", "format", "options", "keep_alive",
                    "logprobs", "top_logprobs"}


def check_ollama(stem: str, body: dict) -> str:
    try:
        OllamaChatRequest.model_validate(body)
    except pydantic.ValidationError as e:
        raise Rejected(f"ollama ChatRequest refuses it: {explain(e, body)}") from None
    unknown = [k for k in body if k not in OLLAMA_CHAT_ARGS]
    if unknown:
        raise Rejected(f"ollama's Client.chat takes no {', '.join(unknown)}")
    fields = set(ollama.Message.model_fields)
    for i, m in enumerate(body.get("messages") or []):
        extra = [k for k in m if k not in fields]
        if extra:
            raise Rejected(f"messages[{i}]: ollama's Message has no {', '.join(extra)}")
    must_match(body, ollama_sends(body), f"ollama {version('ollama')}")
    return (f"Ollama /api/chat: valid as ollama ChatRequest and Message, no unknown field; "
            f"ollama {version('ollama')} sends it unchanged")


CHECKS: dict[str, Callable[[str, dict], str]] = {
    "chat": check_chat, "responses": check_responses, "anthropic": check_anthropic,
    "gemini": check_gemini, "ollama": check_ollama,
}


def check_body(stem: str, body: dict) -> str:
    shape, named = protocol_by_shape(body), protocol_by_name(stem)
    if shape is None:
        raise Rejected("cannot tell the protocol from the body's shape")
    if named is None:
        raise Rejected(f"the body looks like {shape}, but the file's name says no protocol")
    if shape != named:
        raise Rejected(f"the body looks like {shape}, the file's name says {named}")
    return CHECKS[shape](stem, body)


# ----------------------------------------------------------------------------- self-checks

def self_checks(bodies: dict[str, dict]) -> list[tuple[str, str, Callable[[], Any]]]:
    """Bodies the checker must reject, each a small change to one of ours, with what the reason
    must name."""
    def need(name):
        if name not in bodies:
            raise LookupError(f"{name}.snap, which this self-check changes, is missing")
        return copy.deepcopy(bodies[name])

    def anthropic_file_path():
        b = need("attachments_anthropic")
        img = next(blk for blk in b["messages"][0]["content"] if blk["type"] == "image")
        img["source"] = {"type": "file_path", "media_type": "image/png", "path": "/home/me/boiling.png"}
        return check_body("attachments_anthropic", b)

    def chat_unknown_part():
        b = need("attachments_chat")
        b["messages"][1]["content"].append({"type": "document", "document": {"data": "JVBERi0="}})
        return check_body("attachments_chat", b)

    def chat_vendor_field_on_openai():
        b = need("chat_o3_after_responses_turn_include")
        b["messages"][2]["reasoning_content"] = "earlier thoughts"
        return check_body("chat_o3_after_responses_turn_include", b)

    def deepseek_field_not_its_own():
        b = need("deepseek_reasoner_include")
        b["messages"][2]["reasoning_details"] = [{"type": "reasoning.text", "text": "x"}]
        return check_body("deepseek_reasoner_include", b)

    def responses_unknown_item():
        b = need("responses_encrypted_include")
        b["input"][1]["type"] = "thinking"
        return check_body("responses_encrypted_include", b)

    def anthropic_wrong_type():
        b = need("first_turn_anthropic_sonnet45_medium")
        b["max_tokens"] = "47008"
        return check_body("first_turn_anthropic_sonnet45_medium", b)

    def gemini_unknown_part_field():
        b = need("gemini3_signatures_include")
        b["contents"][1]["parts"][2]["thoughtSignatures"] = b["contents"][1]["parts"][2].pop("thoughtSignature")
        return check_body("gemini3_signatures_include", b)

    def gemini_unknown_config():
        b = need("first_turn_gemini3_pro_low")
        b["generationConfig"]["thinkingConfig"]["reasoningEffort"] = "low"
        return check_body("first_turn_gemini3_pro_low", b)

    def ollama_unknown_message_field():
        b = need("ollama_qwen3_after_thinking_include")
        b["messages"][2]["reasoning_content"] = b["messages"][2].pop("thinking")
        return check_body("ollama_qwen3_after_thinking_include", b)

    def sdk_drops_field():
        # Past the field check, the comparison alone must see what the SDK leaves out.
        b = need("ollama_qwen3_after_thinking_include")
        b["messages"][2]["tool_name"] = ""  # the ollama client drops empty fields
        must_match(b, ollama_sends(b), f"ollama {version('ollama')}")

    def unknown_protocol():
        return check_body("first_turn_chat_o3_high", {"model": "o3", "prompt": "Hello"})

    def name_and_shape_disagree():
        return check_body("first_turn_chat_o3_high", need("first_turn_anthropic_sonnet45_medium"))

    return [
        ('an Anthropic image block whose source.type is "file_path"', "source.type: 'file_path'",
         anthropic_file_path),
        ('a Chat content part of unknown type "document"', "type: 'document'", chat_unknown_part),
        ("reasoning_content (a vendor field) on a first-party OpenAI Chat body", "messages[2].reasoning_content",
         chat_vendor_field_on_openai),
        ("OpenRouter's reasoning_details on a DeepSeek body", "messages[2].reasoning_details",
         deepseek_field_not_its_own),
        ('a Responses input item of unknown type "thinking"', "input[1].type: 'thinking'", responses_unknown_item),
        ("an Anthropic max_tokens sent as a string", "max_tokens", anthropic_wrong_type),
        ("a Gemini part with an unknown field thoughtSignatures", "thoughtSignatures: Extra inputs",
         gemini_unknown_part_field),
        ("a Gemini thinkingConfig with an unknown field reasoningEffort", "reasoningEffort: Extra inputs",
         gemini_unknown_config),
        ("an Ollama message with an unknown field reasoning_content", "reasoning_content",
         ollama_unknown_message_field),
        ("an Ollama body the SDK would send with a field left out", "tool_name dropped", sdk_drops_field),
        ("a body whose protocol cannot be told", "cannot tell the protocol", unknown_protocol),
        ("a body whose file name and shape disagree", "looks like anthropic", name_and_shape_disagree),
    ]


# ----------------------------------------------------------------------------- main

def main() -> int:
    warnings.simplefilter("ignore")  # the SDKs' deprecation and "experimental" notes
    files = sorted(BODIES.glob("*.snap"))
    failed = checked = 0
    bodies: dict[str, dict] = {}

    def report(ok: bool, name: str, what: str):
        nonlocal failed
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}", flush=True)
        failed += not ok

    for path in files:
        try:
            body = load_body(path)
            bodies[path.stem] = body
            what = check_body(path.stem, body)
            report(True, path.name, what)
        except Rejected as e:
            report(False, path.name, str(e))
        except Exception as e:  # the checker's own error is a failure too, and says where
            report(False, path.name, f"the check broke: {type(e).__name__}: {e} "
                                     f"({traceback.extract_tb(e.__traceback__)[-1].name})")
        checked += 1

    for what, reason, run in self_checks(bodies):
        try:
            run()
        except Rejected as e:
            if reason in str(e):
                report(True, "self-check", f"rejects {what}: {e}")
            else:
                report(False, "self-check", f"rejects {what}, but not for {reason!r}: {e}")
            continue
        except Exception as e:
            report(False, "self-check", f"{what}: the check broke: {type(e).__name__}: {e}")
            continue
        report(False, "self-check", f"accepted {what}")

    if not files or checked < len(files):
        report(False, str(BODIES.relative_to(ROOT)), f"only {checked} of {len(files)} bodies were checked")
    print(f"sdk: {checked} bodies checked with openai {version('openai')}, anthropic {version('anthropic')}, "
          f"google-genai {version('google-genai')}, ollama {version('ollama')}; {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
