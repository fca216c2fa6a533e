"""Deterministic text in Chinese or English: facts about a task's theme, and documents built
from them.

Coherence matters more than variety: the same entities, people and dates recur across a
workspace, so grepping for a company finds the emails and notes about it, and a summary written
from what was read repeats facts that really are in the sources.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# theme -> language -> (topics, entities, metrics)
THEMES: dict[str, dict[str, tuple[list[str], list[str], list[str]]]] = {
    "finance": {
        "en": (["portfolio rebalancing", "bond exposure", "quarterly earnings", "client mandate",
                "sector rotation", "cash flow forecast"],
               ["Harbor Capital", "Norden Energy", "Vista Retail", "Keystone Bank", "Lumen Health",
                "Orbit Logistics"],
               ["revenue", "net margin", "return", "operating cost", "free cash flow"]),
        "zh": (["组合再平衡", "债券敞口", "季度业绩", "客户委托", "行业轮动", "现金流预测"],
               ["海港资本", "北境能源", "远景零售", "基石银行", "明光医疗", "轨道物流"],
               ["营收", "净利率", "收益率", "运营成本", "自由现金流"]),
    },
    "legal": {
        "en": (["lease dispute", "witness statement", "discovery request", "settlement offer",
                "contract breach", "hearing schedule"],
               ["Marlow & Reed LLP", "Greenfield Properties", "J. Alvarez", "the district court",
                "Castle Insurance", "Dr. Patel"],
               ["claimed damages", "deposit", "legal fees", "late penalty", "settlement amount"]),
        "zh": (["租赁纠纷", "证人陈述", "证据开示", "和解方案", "合同违约", "庭审安排"],
               ["明德律师事务所", "绿野地产", "王律师", "区法院", "城堡保险", "李医生"],
               ["索赔金额", "押金", "律师费", "滞纳金", "和解金额"]),
    },
    "knowledge": {
        "en": (["spaced repetition", "note taking", "reading list", "project retrospectives",
                "writing habits", "learning goals"],
               ["Zettelkasten", "the book club", "Coursera", "the team wiki", "my mentor", "the library"],
               ["notes", "hours studied", "pages read", "cards reviewed", "links"]),
        "zh": (["间隔重复", "笔记方法", "阅读清单", "项目复盘", "写作习惯", "学习目标"],
               ["卡片盒笔记", "读书会", "网课平台", "团队知识库", "导师", "图书馆"],
               ["笔记数", "学习时长", "阅读页数", "复习卡片", "链接数"]),
    },
    "project": {
        "en": (["launch checklist", "budget review", "vendor onboarding", "sprint planning",
                "risk register", "stakeholder update"],
               ["Atlas project", "the design team", "Nova Supplies", "the finance office",
                "Priya", "Marcus"],
               ["budget", "tasks closed", "hours", "open risks", "milestones met"]),
        "zh": (["上线检查清单", "预算评审", "供应商接入", "迭代规划", "风险登记", "干系人汇报"],
               ["阿特拉斯项目", "设计组", "新星供应", "财务处", "小周", "老陈"],
               ["预算", "完成任务数", "工时", "未关闭风险", "达成里程碑"]),
    },
    "office": {
        "en": (["expense claims", "travel booking", "team offsite", "printer contract",
                "onboarding packet", "holiday rota"],
               ["HR", "facilities", "Contoso Travel", "the front desk", "Lena", "Omar"],
               ["cost", "requests", "days", "invoices", "attendees"]),
        "zh": (["报销单", "差旅预订", "团队团建", "打印机合同", "入职资料", "值班排班"],
               ["人事部", "行政部", "康拓旅行社", "前台", "小林", "老王"],
               ["费用", "申请数", "天数", "发票数", "参会人数"]),
    },
    "research": {
        "en": (["battery recycling", "urban heat islands", "remote work productivity",
                "coastal erosion", "microplastics", "solar adoption"],
               ["the OECD", "MIT Energy Lab", "the city council", "Dr. Hansen", "GreenTech Review",
                "the survey panel"],
               ["adoption rate", "cost per unit", "sample size", "effect size", "emissions"]),
        "zh": (["电池回收", "城市热岛", "远程办公效率", "海岸侵蚀", "微塑料", "光伏普及"],
               ["经合组织", "能源实验室", "市议会", "韩森博士", "绿色科技评论", "调查样本组"],
               ["普及率", "单位成本", "样本量", "效应量", "排放量"]),
    },
    "personal": {
        "en": (["morning routine", "running plan", "family dinner", "budget diary",
                "weekend hike", "reading habit"],
               ["Mum", "the gym", "Anna", "the neighbourhood park", "the bakery", "my sister"],
               ["kilometres", "hours slept", "spending", "books finished", "steps"]),
        "zh": (["晨间习惯", "跑步计划", "家庭聚餐", "记账日记", "周末徒步", "阅读习惯"],
               ["妈妈", "健身房", "小安", "社区公园", "面包店", "姐姐"],
               ["公里数", "睡眠时长", "支出", "读完的书", "步数"]),
    },
    "media": {
        "en": (["film noir", "nature documentaries", "festival winners", "animated features",
                "director retrospectives", "wildlife footage"],
               ["Criterion", "the BBC unit", "Studio Ghibli", "Cannes", "the film society",
                "the archive"],
               ["runtime", "rating", "release year", "views", "duration"]),
        "zh": (["黑色电影", "自然纪录片", "电影节获奖片", "动画长片", "导演回顾展", "野生动物影像"],
               ["标准收藏", "纪录片组", "吉卜力工作室", "戛纳", "电影协会", "资料馆"],
               ["片长", "评分", "上映年份", "播放量", "时长"]),
    },
    "travel": {
        "en": (["Kyoto temples", "Lisbon old town", "Alpine lakes", "night markets",
                "coastal road trip", "museum day"],
               ["the hotel", "the tour guide", "Lisbon", "Kyoto", "the ferry", "Lake Como"],
               ["photos", "kilometres", "days", "spending", "stops"]),
        "zh": (["京都寺庙", "里斯本老城", "阿尔卑斯湖区", "夜市", "沿海自驾", "博物馆之旅"],
               ["酒店", "导游", "里斯本", "京都", "渡轮", "科莫湖"],
               ["照片数", "公里数", "天数", "花费", "站点数"]),
    },
    "education": {
        "en": (["capstone project", "design studio", "lab report", "internship",
                "research poster", "coursework"],
               ["Professor Lee", "the design school", "the robotics club", "the exhibition",
                "the writing centre", "the lab"],
               ["grade", "credits", "hours", "drafts", "awards"]),
        "zh": (["毕业设计", "设计工作坊", "实验报告", "实习经历", "学术海报", "课程作业"],
               ["李教授", "设计学院", "机器人社团", "作品展", "写作中心", "实验室"],
               ["成绩", "学分", "学时", "草稿数", "获奖数"]),
    },
    "pets": {
        "en": (["vaccination schedule", "diet plan", "vet visit", "grooming", "training sessions",
                "insurance claim"],
               ["Biscuit", "the vet clinic", "Dr. Moreau", "the pet shop", "the trainer",
                "PetCare Insurance"],
               ["weight", "cost", "doses", "walks", "visits"]),
        "zh": (["疫苗计划", "饮食方案", "看兽医", "美容护理", "训练课程", "保险理赔"],
               ["饼干", "宠物医院", "莫医生", "宠物店", "训犬师", "宠安保险"],
               ["体重", "费用", "剂量", "遛狗次数", "就诊次数"]),
    },
    "companies": {
        "en": (["registration certificate", "annual return", "director change", "share capital",
                "registered address", "tax number"],
               ["Blue River Ltd", "Sunrise Foods", "Pinecrest Tech", "Harbour Freight",
                "Maple Design", "Quartz Labs"],
               ["share capital", "employees", "filing fee", "turnover", "directors"]),
        "zh": (["营业执照", "年度报告", "董事变更", "注册资本", "注册地址", "税号"],
               ["蓝河有限公司", "朝阳食品", "松峰科技", "港湾货运", "枫叶设计", "石英实验室"],
               ["注册资本", "员工人数", "申报费用", "营业额", "董事人数"]),
    },
}

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
