#!/usr/bin/env python3
"""Refreshes Ponder's list of real model ids from LiteLLM's model database.

LiteLLM (MIT, https://github.com/BerriAI/litellm) ships `model_prices_and_context_window.json`
inside its Python package: real API ids per provider with their input and output limits,
whether they reason, when they retire and what they cost. This script downloads one pinned
release of the package from PyPI, keeps the chat models of the providers Ponder speaks to and
writes a small, dated copy next to the catalog, with LiteLLM's licence beside it.

    python3 tools/refresh-models.py              # the pinned release
    python3 tools/refresh-models.py --version X  # another release (then pin it below)

Only the data is copied. A hand-written rule in catalog.json says how an id thinks where the
data cannot (budgets, replay); elsewhere the catalog derives the rule from these facts.
"""

import argparse
import datetime
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import zipfile

PINNED = "1.109.1"
DATA = "litellm/model_prices_and_context_window_backup.json"
OUT = pathlib.Path(__file__).resolve().parent.parent / "src-tauri/core/src/catalog"

# Ponder's provider id -> LiteLLM's `litellm_provider`. Local servers (Ollama, llama.cpp,
# LM Studio) and routers list their own models; they have no fixed ids to ship.
PROVIDERS = {
    "anthropic": "anthropic",
    "openai": "openai",
    "google": "gemini",
    "deepseek": "deepseek",
    "moonshot": "moonshot",
    "qwen": "dashscope",
    "minimax": "minimax",
    "xai": "xai",
    "zai": "zai",
    "copilot": "github_copilot",
}

# Ids that are not for chatting even where LiteLLM files them as chat: speech, search,
# images, computer use, research agents, music, fine-tunes.
NOT_CHAT = re.compile(
    r"^ft:|audio|realtime|tts|transcribe|whisper|search|image|computer-use|deep-research"
    r"|embed|moderation|lyria|robotics|container|dall-e|sora|-customtools$"
)

# A dated snapshot: claude-opus-4-6-20260205, gpt-5.4-2026-03-05, grok-4.20-0309.
DATED = re.compile(r"^(?P<base>.+?)-(?P<date>\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$")


def download(version: str, into: pathlib.Path) -> pathlib.Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", f"litellm=={version}", "--no-deps",
         "--only-binary=:all:", "--quiet", "--dest", str(into)],
        check=True,
    )
    wheels = list(into.glob("litellm-*.whl"))
    if not wheels:
        sys.exit("pip downloaded no litellm wheel")
    return wheels[0]


def per_million(cost):
    return None if cost is None else round(cost * 1_000_000, 6)


def release_date(date: str):
    digits = date.replace("-", "")
    if len(digits) != 8:
        return None  # MMDD snapshots (grok-4.20-0309) do not say the year
    try:
        return datetime.date(int(digits[:4]), int(digits[4:6]), int(digits[6:])).isoformat()
    except ValueError:
        return None


# LiteLLM's facts about how a model reasons, kept as they are: the catalog derives a thinking
# rule from them (and the provider's dialect) where no hand-written rule covers the id.
THINKING_FACTS = (
    "supports_adaptive_thinking",
    "supports_none_reasoning_effort",
    "supports_minimal_reasoning_effort",
    "supports_low_reasoning_effort",
    "supports_xhigh_reasoning_effort",
    "supports_max_reasoning_effort",
    "thinking_always_on",
    "reasoning_effort_levels",
    "default_reasoning_effort",
)


def thinking_facts(facts: dict) -> dict:
    return {key: facts[key] for key in THINKING_FACTS if facts.get(key) is not None}


# LiteLLM's facts about what a model reads besides text, kept as they are: whether an image
# or a PDF may be attached to a message for it.
INPUT_FACTS = ("supports_vision", "supports_pdf_input")


def input_facts(facts: dict) -> dict:
    return {key: facts[key] for key in INPUT_FACTS if facts.get(key) is not None}


def trim(raw: dict) -> list:
    models = {}
    for key, facts in raw.items():
        if not isinstance(facts, dict):
            continue
        provider = next((p for p, lp in PROVIDERS.items() if facts.get("litellm_provider") == lp), None)
        if provider is None or facts.get("mode") not in ("chat", "responses"):
            continue
        model_id = key.split("/", 1)[1] if key.startswith(PROVIDERS[provider] + "/") else key
        if "/" in model_id or NOT_CHAT.search(model_id.lower()):
            continue
        max_input = facts.get("max_input_tokens") or facts.get("max_tokens")
        max_output = facts.get("max_output_tokens") or facts.get("max_tokens")
        if not isinstance(max_input, int) or not isinstance(max_output, int):
            continue
        entry = {
            "provider": provider,
            "id": model_id,
            "max_input": max_input,
            "max_output": max_output,
            "reasoning": bool(facts.get("supports_reasoning")),
            "responses_only": facts.get("mode") == "responses",
            "thinking": thinking_facts(facts),
            "inputs": input_facts(facts),
            "released": None,
            "retires": facts.get("deprecation_date"),
            "price": {
                "input": per_million(facts.get("input_cost_per_token")),
                "output": per_million(facts.get("output_cost_per_token")),
                "cached_input": per_million(facts.get("cache_read_input_token_cost")),
                "reasoning": per_million(facts.get("output_cost_per_reasoning_token")),
            },
        }
        models.setdefault((provider, model_id.lower()), entry)

    # A dated snapshot whose undated alias is listed gives the alias its release date and is
    # left out (the alias is what the picker offers; a dated id still resolves through it).
    for (provider, lowered), entry in list(models.items()):
        dated = DATED.match(lowered)
        if not dated:
            continue
        alias = models.get((provider, dated["base"]))
        if alias is None:
            entry["released"] = release_date(dated["date"])
            continue
        released = release_date(dated["date"])
        if released and (alias["released"] is None or released > alias["released"]):
            alias["released"] = released
        del models[(provider, lowered)]

    order = list(PROVIDERS)
    return sorted(models.values(), key=lambda m: (order.index(m["provider"]), m["id"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default=PINNED)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = download(args.version, pathlib.Path(tmp))
        with zipfile.ZipFile(wheel) as archive:
            raw = json.loads(archive.read(DATA))
            licence = next(n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE"))
            (OUT / "models.LICENSE").write_bytes(archive.read(licence))
    models = trim(raw)
    document = {
        "source": f"LiteLLM {args.version}, {DATA} (MIT licence: models.LICENSE)",
        "refreshed": datetime.date.today().isoformat(),
        "models": models,
    }
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    (OUT / "models.json").write_text(text)
    print(f"{len(models)} models from LiteLLM {args.version} -> {OUT / 'models.json'}")


if __name__ == "__main__":
    main()
