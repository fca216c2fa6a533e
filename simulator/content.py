"""Deterministic text in Chinese or English: facts about a task's theme, and documents built
from them.

Coherence matters more than variety: the same entities, people and dates recur across a
workspace, so grepping for a company finds the emails and notes about it, and a summary written
from what was read repeats facts that really are in the sources.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from pathlib import Path

# theme -> language -> (topics, entities, metrics), from themes.toml beside this file.
ThemeWords = tuple[list[str], list[str], list[str]]


def _load_themes() -> dict[str, dict[str, ThemeWords]]:
    data = tomllib.loads((Path(__file__).parent / "themes.toml").read_text(encoding="utf-8"))
    return {theme: {lang: (list(w["topics"]), list(w["entities"]), list(w["metrics"])) for lang, w in langs.items()}
            for theme, langs in data.items()}


THEMES: dict[str, dict[str, ThemeWords]] = _load_themes()

PERSON_NAMES = {
    "en": ["Sarah Mills", "David Chen", "Ana Costa", "Ben Walker", "Grace Liu", "Tom Becker"],
    "zh": ["张伟", "李娜", "王芳", "刘洋", "陈静", "赵磊"],
}

_EN_TEMPLATES = [
    "{ent} reported {metric} of {value} for {period}.",
    "The {topic} review with {person} is scheduled for {date}.",
    "{person} noted that {topic} needs a decision before {date}.",
    "Compared with the previous period, {metric} at {ent} changed by {pct}%.",
    "Open question: how does {topic} affect {ent}?",
    "Action item: {person} will send the {topic} figures by {date}.",
    "According to {ent}, {topic} remains the main priority this month.",
    "Key risk: {topic} may delay the {ent} timeline by {days} days.",
    "{person} asked for a short note on {topic} with the latest {metric}.",
    "The {topic} file from {ent} lists {value} as the agreed {metric}.",
    "We agreed to revisit {topic} after {person} confirms the numbers.",
    "Background: {ent} has been involved in {topic} since {year}.",
]
_ZH_TEMPLATES = [
    "{ent}报告{period}的{metric}为{value}。",
    "与{person}的{topic}评审安排在{date}。",
    "{person}指出{topic}需要在{date}之前做出决定。",
    "与上一期相比,{ent}的{metric}变化了{pct}%。",
    "待解决问题:{topic}会如何影响{ent}?",
    "行动项:{person}将在{date}前发送{topic}的数据。",
    "据{ent}称,{topic}仍是本月的首要任务。",
    "主要风险:{topic}可能使{ent}的进度推迟{days}天。",
    "{person}希望拿到一份关于{topic}的简短说明,附上最新{metric}。",
    "{ent}的{topic}文件列出{value}作为约定的{metric}。",
    "我们同意在{person}确认数字后再讨论{topic}。",
    "背景:{ent}自{year}年起参与{topic}。",
]


@dataclass
class World:
    """The shared facts of one workspace: who and what its files talk about."""

    theme: str
    language: str
    topics: list[str]
    entities: list[str]
    metrics: list[str]
    people: list[str]

    @classmethod
    def make(cls, theme: str, language: str, rng: random.Random) -> World:
        topics, ents, metrics = THEMES.get(theme, THEMES["office"])[language]
        people = list(PERSON_NAMES[language])
        rng.shuffle(people)
        return cls(theme, language, list(topics), list(ents), list(metrics), people)

    def date(self, rng: random.Random) -> str:
        m, d = rng.randint(1, 12), rng.randint(1, 28)
        return f"2025-{m:02d}-{d:02d}" if self.language == "en" else f"2025年{m}月{d}日"

    def period(self, rng: random.Random) -> str:
        q = rng.randint(1, 4)
        return f"Q{q} 2025" if self.language == "en" else f"2025年第{q}季度"

    def value(self, rng: random.Random) -> str:
        v = rng.choice([rng.randint(12, 980), round(rng.uniform(1.1, 99.9), 1)])
        return f"{v}k" if self.language == "en" else f"{v}万"

    def sentence(self, rng: random.Random, topic: str | None = None, ent: str | None = None) -> str:
        tpl = rng.choice(_ZH_TEMPLATES if self.language == "zh" else _EN_TEMPLATES)
        text = tpl.format(
            ent=ent or rng.choice(self.entities), topic=topic or rng.choice(self.topics),
            metric=rng.choice(self.metrics), value=self.value(rng), period=self.period(rng),
            person=rng.choice(self.people), date=self.date(rng), pct=rng.randint(2, 35),
            days=rng.randint(3, 21), year=rng.randint(2015, 2024),
        ).replace("the the ", "the ")
        return text[0].upper() + text[1:]

    def paragraph(self, rng: random.Random, n: int, topic: str | None = None) -> str:
        joiner = "" if self.language == "zh" else " "
        ent = rng.choice(self.entities)
        return joiner.join(self.sentence(rng, topic, ent if rng.random() < 0.5 else None) for _ in range(n))


def heading_words(language: str) -> dict[str, str]:
    if language == "zh":
        return {"overview": "概述", "findings": "主要发现", "details": "详细说明", "actions": "行动项",
                "sources": "资料来源", "appendix": "附录", "data": "数据", "summary": "摘要",
                "notes": "笔记", "risks": "风险", "timeline": "时间线", "next": "下一步",
                "figure": "图", "background": "背景", "method": "方法", "open": "待定问题"}
    return {"overview": "Overview", "findings": "Key findings", "details": "Details",
            "actions": "Action items", "sources": "Sources", "appendix": "Appendix", "data": "Data",
            "summary": "Summary", "notes": "Notes", "risks": "Risks", "timeline": "Timeline",
            "next": "Next steps", "figure": "Figure", "background": "Background",
            "method": "Method", "open": "Open questions"}
