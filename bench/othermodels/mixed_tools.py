"""A mixed-logging-tools behaviour model, independent of our simulator.

Each session is seen through one of three loggers (agent wrapper, editor plugin, file-system
recorder) that record different subsets of the actions, in English, Chinese or Spanish, so
the robustness bench checks that profiles survive missing event types and other languages.
Stdlib only; the output depends on the seed alone.

    python -m filegram.bench.othermodels.mixed_tools --seed 3 --out DIR
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import hashlib
import json
import os
import posixpath
import random
import re
import shutil
import sys
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["DEFAULT_SEED", "DESCRIPTION", "NAME", "generate", "main"]

NAME = "mixed-tools"
DESCRIPTION = (
    "A mixed-logging-tools model: 14 users logged by an agent wrapper, an editor plugin or a "
    "file-system recorder (each missing some event types), in three languages, with drift sessions."
)
DEFAULT_SEED = 3

# 14 office / research workers (q00..q13) were logged for ~6-9 weeks by one of three tools:
#
#   agent  - an assistant shell wrapper: all 12 atomic action types
#            (read, browse, search, write, edit, rename, move, dir_create,
#            delete, copy, context_switch, cross_file_reference)
#   ide    - an editor plugin: no file_browse and no file_copy
#   fsrec  - a file-system recorder: no search / browse / context_switch /
#            cross_file_reference; reads carry no line range (view_range null)
#
# Each user has a personal mix of loggers.  A session is either short (one job) or
# long (2-4 jobs from the 32 tasks, run one after another in the same folder).  A job
# only gives a chance to show the dimensions listed for its task; other dimensions get
# person-neutral, minimal behaviour.  Every chance is drawn once per job: with the
# user's inconsistency rate (10-30 %, per dimension) the person behaves like a
# neighbouring tier (L<->M<->R) or, for A/C/E/F, skips the behaviour.
#
# Nuisance traits that do not depend on tiers: language (en / zh / es), short-line vs
# long-paragraph writing, pace, preferred document type (md / txt / docx) and data type
# (csv / xlsx), file-naming convention, folder vocabulary, backup naming, task mix.
#
# Drift: 2-4 sessions per user shift exactly one exercised dimension by one tier for
# that session only (no noise on the shifted dimension); recorded in truth.json and in
# the session's perturbation.json.

DIMS = "ABCDEF"
LOGGERS = {
    "agent": {"file_read", "file_browse", "file_search", "file_write", "file_edit", "file_rename",
              "file_move", "dir_create", "file_delete", "file_copy", "context_switch",
              "cross_file_reference"},
    "ide": {"file_read", "file_search", "file_write", "file_edit", "file_rename", "file_move",
            "dir_create", "file_delete", "context_switch", "cross_file_reference"},
    "fsrec": {"file_read", "file_write", "file_edit", "file_rename", "file_move", "dir_create",
              "file_delete", "file_copy"},
}
TEXT_EXT = {"md", "txt", "csv", "eml", "ics", "json"}
BIN_SIZE = {"pdf": (60e3, 2.5e6), "docx": (14e3, 90e3), "xlsx": (9e3, 70e3), "png": (25e3, 450e3),
            "jpg": (400e3, 4.5e6), "mp3": (1.2e6, 25e6), "mp4": (12e6, 350e6)}

# --------------------------------------------------------------------------- language packs
LANG = {
    "en": dict(
        n=["budget", "timeline", "deliverable", "risk", "milestone", "forecast", "estimate", "schedule",
           "metric", "draft", "review", "contract", "update", "backlog", "figure", "plan", "baseline"],
        adj=["higher than expected", "lower", "stable", "unclear", "critical", "a minor issue", "consistent",
             "late", "on track", "incomplete", "promising", "weak", "roughly the same"],
        vb=["check", "confirm", "update", "compare", "review", "send", "clarify", "revise", "track",
            "double-check", "discuss"],
        vpn=["rose", "fell", "grew", "dropped"],
        vp=["changed", "improved", "slipped", "recovered", "held steady", "moved"],
        per=["last quarter", "the previous week", "March", "Q2", "the pilot phase", "last year",
             "the first round", "January"],
        ppl=["Dana", "the finance team", "legal", "the client", "Marco", "the vendor", "my manager",
             "Priya", "the board", "Tom"],
        tm=["Friday", "end of month", "the next sync", "Tuesday", "the deadline", "next week"],
        tmpl=["{K} {vpn} by {pct}% versus {per}.",
              "Need to {vb} the {k} with {ppl} before {tm}.",
              "{K} looks {adj}; {k2} still has open questions.",
              "The {n} for {k} was {adj} in {per}, mostly due to {k2}.",
              "{Ppl} asked us to {vb} the {n} on {k}.",
              "Open item: {vb} {k2} and note the {n}.",
              "Compared with {per}, {k} is {adj} and the {n} {vp}.",
              "{K}: {num} entries reviewed, {num2} flagged for follow-up.",
              "Main takeaway: {k} and {k2} move together.",
              "The notes mention {k} several times without a clear {n}.",
              "If {k} stays {adj}, the {n} for {k2} needs another look.",
              "Decision: keep {k} as is until {tm}.",
              "{Ppl} confirmed the {n}; {k2} is still pending.",
              "There is a gap between {k} and the {n} reported in {per}.",
              "Worth asking {ppl} whether {k2} affects the {n}."],
        head=["{K} overview", "Notes on {k}", "{K} and {k2}", "Open questions", "Background", "Next steps",
              "Details: {k}", "Summary", "Timeline", "Findings on {k}", "Risks", "Action items", "Sources",
              "Context", "What changed", "{K} by period", "Method", "Observations"],
        cols=[["Item", "Owner", "Status", "Due"], ["Metric", "Before", "After", "Change"],
              ["Name", "Type", "Date", "Notes"]],
        status=["open", "done", "pending", "blocked", "in review"],
        sep=" ",
    ),
    "zh": dict(
        n=["预算", "时间表", "交付物", "风险", "里程碑", "预测", "估算", "日程", "指标", "草稿", "反馈",
           "合同", "进度", "待办", "数据", "计划", "基线"],
        adj=["偏高", "偏低", "比较稳定", "还不清楚", "比较关键", "影响不大", "基本一致", "有些滞后",
             "进展正常", "不完整", "有改善"],
        vb=["确认", "核对", "更新", "比较", "整理", "补充", "修改", "汇总", "跟进", "讨论"],
        vpn=["上升了", "下降了", "增长了", "减少了"],
        vp=["有所变化", "有所改善", "略有下滑", "基本持平", "出现波动"],
        per=["上季度", "上周", "三月份", "第二季度", "试点阶段", "去年", "第一轮", "一月份"],
        ppl=["王经理", "财务组", "法务", "客户", "小李", "供应商", "张老师", "团队", "刘总"],
        tm=["周五", "月底", "下次例会", "周二", "截止日", "下周"],
        tmpl=["{k}较{per}{vpn}{pct}%。",
              "需要在{tm}之前和{ppl}{vb}{k}。",
              "{k}目前{adj},{k2}还有待确认。",
              "{per}的{k}{n}{adj},主要原因是{k2}。",
              "{ppl}让我们{vb}一下{k}的{n}。",
              "待办:{vb}{k2}并记录{n}。",
              "与{per}相比,{k}{adj},{n}{vp}。",
              "{k}:共核对{num}条,其中{num2}条需要跟进。",
              "要点:{k}和{k2}的变化基本同步。",
              "资料里多次提到{k},但没有明确的{n}。",
              "如果{k}持续{adj},{k2}的{n}需要重新评估。",
              "结论:{tm}之前{k}保持不变。",
              "{ppl}已确认{n},{k2}仍在等待。",
              "{k}和{per}报告的{n}之间有出入。",
              "可以问问{ppl},{k2}会不会影响{n}。"],
        head=["{k}概述", "关于{k}的记录", "{k}与{k2}", "待解决问题", "背景", "下一步", "细节:{k}", "小结",
              "时间线", "{k}的发现", "风险", "行动项", "资料来源", "情况说明", "变化", "分阶段的{k}", "方法",
              "观察"],
        cols=[["事项", "负责人", "状态", "截止"], ["指标", "之前", "之后", "变化"], ["名称", "类型", "日期", "备注"]],
        status=["进行中", "已完成", "待定", "受阻", "审核中"],
        sep="",
    ),
    "es": dict(
        n=["presupuesto", "calendario", "entregable", "riesgo", "hito", "pronóstico", "indicador", "borrador",
           "comentario", "contrato", "avance", "gráfico", "informe", "plazo", "resultado"],
        adj=["más alto de lo previsto", "más bajo", "estable", "poco claro", "crítico", "un detalle menor",
             "coherente", "atrasado", "en plazo", "incompleto", "prometedor"],
        vb=["revisar", "confirmar", "actualizar", "comparar", "enviar", "aclarar", "corregir", "resumir",
            "seguir", "comentar"],
        vpn=["subió", "bajó", "creció", "cayó"],
        vp=["cambió", "mejoró", "se retrasó", "se recuperó", "se mantuvo"],
        per=["el trimestre pasado", "la semana anterior", "marzo", "el segundo trimestre", "la fase piloto",
             "el año pasado", "la primera ronda", "enero"],
        ppl=["Lucía", "el equipo de finanzas", "el área legal", "el cliente", "Javier", "el proveedor",
             "mi jefa", "la junta", "Andrés"],
        tm=["el viernes", "fin de mes", "la próxima reunión", "el martes", "la fecha límite",
            "la semana que viene"],
        tmpl=["{K} {vpn} un {pct}% frente a {per}.",
              "Hay que {vb} {k} con {ppl} antes de {tm}.",
              "{K} parece {adj}; {k2} todavía tiene preguntas abiertas.",
              "En {per} el {n} de {k} fue {adj}, sobre todo por {k2}.",
              "{Ppl} pidió {vb} el {n} de {k}.",
              "Pendiente: {vb} {k2} y anotar el {n}.",
              "Comparado con {per}, {k} está {adj} y el {n} {vp}.",
              "{K}: {num} registros revisados, {num2} marcados para seguimiento.",
              "Idea principal: {k} y {k2} se mueven juntos.",
              "Las notas mencionan {k} varias veces sin un {n} claro.",
              "Si {k} sigue {adj}, habrá que revisar el {n} de {k2}.",
              "Decisión: mantener {k} hasta {tm}.",
              "{Ppl} confirmó el {n}; {k2} sigue pendiente.",
              "Hay una diferencia entre {k} y el {n} de {per}.",
              "Conviene preguntar a {ppl} si {k2} afecta al {n}."],
        head=["Resumen de {k}", "Notas sobre {k}", "{K} y {k2}", "Preguntas abiertas", "Contexto",
              "Próximos pasos", "Detalles: {k}", "Resumen", "Cronología", "Hallazgos sobre {k}", "Riesgos",
              "Acciones", "Fuentes", "Situación", "Qué cambió", "{K} por periodo", "Método", "Observaciones"],
        cols=[["Elemento", "Responsable", "Estado", "Fecha"], ["Indicador", "Antes", "Después", "Cambio"],
              ["Nombre", "Tipo", "Fecha", "Notas"]],
        status=["abierto", "hecho", "pendiente", "bloqueado", "en revisión"],
        sep=" ",
    ),
}

# localized stems: key -> (en words, zh string, es words)
STEMS = {
    "appendix": (["appendix"], "附录", ["anexo"]), "sources": (["sources"], "资料来源", ["fuentes"]),
    "details": (["details"], "详细说明", ["detalles"]), "timeline": (["timeline"], "时间线", ["cronologia"]),
    "glossary": (["glossary"], "术语表", ["glosario"]), "notes": (["notes"], "笔记", ["notas"]),
    "scratch": (["scratch"], "草稿纸", ["borrador", "rapido"]), "tmp": (["tmp", "notes"], "临时记录", ["tmp", "notas"]),
    "draft": (["draft"], "初稿", ["borrador"]), "chart": (["chart"], "图表", ["grafico"]),
    "data": (["data"], "数据", ["datos"]), "index": (["index"], "索引", ["indice"]),
    "album": (["album"], "相册", ["album"]), "catalog": (["catalog"], "目录", ["catalogo"]),
    "captions": (["captions"], "照片说明", ["pies", "de", "foto"]), "overview": (["overview"], "概览", ["vista", "general"]),
    "contact": (["contact", "sheet"], "缩略图", ["hoja", "contactos"]), "log": (["changes"], "变更记录", ["cambios"]),
    "report": (["check", "report"], "检查报告", ["informe", "revision"]), "plan": (["plan"], "计划", ["plan"]),
}
FOLDERS = {
    "reports": ("reports", "报告", "informes"), "notes": ("notes", "笔记", "notas"),
    "archive": ("archive", "归档", "archivo"), "projects": ("projects", "项目", "proyectos"),
    "docs": ("docs", "文档", "documentos"), "figures": ("figures", "图表", "figuras"),
    "images": ("images", "图片", "imagenes"), "data": ("data", "数据", "datos"),
    "audio": ("audio", "音频", "audio"), "video": ("video", "视频", "video"), "mail": ("mail", "邮件", "correo"),
    "misc": ("misc", "其他", "varios"), "work": ("work", "工作", "trabajo"), "finance": ("finance", "财务", "finanzas"),
    "drafts": ("drafts", "草稿", "borradores"), "calendar": ("calendar", "日程", "agenda"),
    "output": ("output", "输出", "salida"), "duplicates": ("duplicates", "重复文件", "duplicados"),
    "photos": ("photos", "照片", "fotos"), "kbnew": ("topics", "专题", "temas"),
}

# --------------------------------------------------------------------------- tasks
T = {}


def task(tid, ttype, dims, kw_en, kw_zh, kw_es, out, inputs):
    T[tid] = dict(id=tid, type=ttype, dims=dims, kw={"en": kw_en, "zh": kw_zh, "es": kw_es}, out=out,
                  inputs=inputs)


def F_(pat, lo, hi, start=1, flags=""):
    return ("fam", pat, lo, hi, start, flags)

task("T-01", "understand", "AB", ["portfolio", "holdings", "sector exposure", "earnings outlook", "valuation"],
     ["投资组合", "持仓", "行业敞口", "盈利预期", "估值"], ["cartera", "posiciones", "exposición sectorial", "beneficios", "valoración"],
     (["work", "overview"], "工作概览", ["resumen", "trabajo"]),
     ["analyst_notes.md*", "portfolio_2024Q2.xlsx", "holdings.csv*", "market_outlook.pdf", "call_notes_0412.txt*",
      "sector_watchlist.md", "risk_memo.docx", "coverage_list.txt"])
task("T-02", "understand", "ABE", ["case facts", "witness", "hearing date", "exhibit", "timeline"],
     ["案件事实", "证人", "开庭日期", "证据", "时间线"], ["hechos del caso", "testigo", "audiencia", "prueba", "cronología"],
     (["case", "timeline"], "案件时间线", ["cronologia", "caso"]),
     ["case_summary.md*", "witness_statement_a.txt*", "witness_statement_b.txt", "contract_scan.pdf",
      "email_thread_03.eml", "evidence_log.csv", "court_dates.ics", "deposition_excerpt.txt",
      "~$brief_draft.docx!", "case_summary_old.md~", "export_0311.tmp!"])
task("T-03", "create", "BC", ["reading list", "project ideas", "how-to notes", "references", "habits"],
     ["阅读清单", "项目想法", "操作笔记", "参考资料", "习惯"], ["lecturas", "ideas de proyecto", "guías", "referencias", "hábitos"],
     (["knowledge", "base"], "知识库", ["base", "conocimiento"]), [])
task("T-04", "create", "BCF", ["agenda", "decisions", "action items", "owners", "deadlines"],
     ["议程", "决议", "行动项", "负责人", "截止日期"], ["agenda", "decisiones", "tareas", "responsables", "plazos"],
     (["meeting", "minutes"], "会议纪要", ["acta", "reunion"]), [])
task("T-05", "organize", "AC", ["invoice", "photo", "notes", "draft", "export"],
     ["发票", "照片", "笔记", "草稿", "导出"], ["factura", "foto", "notas", "borrador", "exportación"], None,
     ["IMG_2041.jpg", "IMG_2042.jpg", "Scan 3.pdf", "invoice-march.pdf*", "invoice_april.pdf", "budget FINAL(2).xlsx",
      "notes.txt*", "todo.md*", "report_v2.docx", "report_v3_final.docx", "photo 1.png", "meeting_recording.mp3",
      "data_export.csv", "Untitled.txt", "receipt_0412.pdf", "presentation.pdf", "draft ideas.md", "contacts.csv",
      "Screenshot 2024-02-11.png", "plan-Q3.docx"])
task("T-06", "synthesize", "ABF", ["survey results", "interviews", "market size", "adoption", "trends"],
     ["调研结果", "访谈", "市场规模", "采用率", "趋势"], ["encuesta", "entrevistas", "tamaño de mercado", "adopción", "tendencias"],
     (["research", "report"], "研究报告", ["informe", "investigacion"]),
     ["paper_summary_1.md*", "paper_summary_2.md*", "survey_results.csv*", "interview_notes.txt", "industry_report.pdf",
      "trend_chart.png", "stats_2023.xlsx", "sources.md", "expert_call.txt"])
task("T-07", "synthesize", "AB", ["routines", "goals", "travel", "reading", "health"],
     ["作息", "目标", "旅行", "阅读", "健康"], ["rutinas", "metas", "viajes", "lectura", "salud"],
     (["personal", "profile"], "个人画像", ["perfil", "personal"]),
     ["diary_2023-09.txt*", "diary_2023-10.txt*", "diary_2023-11.txt", "diary_2023-12.txt", "notes_misc.md",
      "goals_2024.md*", "reading_log.csv"])
task("T-08", "create", "BCF", ["KPIs", "projects delivered", "hours", "blockers", "next quarter"],
     ["关键指标", "交付项目", "工时", "阻碍", "下季度"], ["indicadores", "proyectos entregados", "horas", "bloqueos", "próximo trimestre"],
     (["quarterly", "summary"], "季度总结", ["resumen", "trimestral"]),
     ["weekly_notes_w1.md*", "weekly_notes_w2.md", "weekly_notes_w3.md", "weekly_notes_w4.md", "kpi_tracker.xlsx",
      "timesheet.csv*"])
task("T-09", "iterate", "DB", ["findings", "methodology", "recommendations", "budget", "scope"],
     ["发现", "方法", "建议", "预算", "范围"], ["hallazgos", "metodología", "recomendaciones", "presupuesto", "alcance"],
     (["report", "condensed"], "报告精简版", ["informe", "resumido"]),
     ["report_draft.md^*", "reviewer_comments.txt*"])
task("T-10", "maintain", "DCE", ["tools", "processes", "contacts", "FAQ", "links"],
     ["工具", "流程", "联系人", "常见问题", "链接"], ["herramientas", "procesos", "contactos", "preguntas frecuentes", "enlaces"],
     (["new", "topic"], "新主题", ["tema", "nuevo"]),
     ["kb/tools.md^", "kb/processes.md^", "kb/contacts.md", "kb/faq.md^", "updates_may.txt*", "kb/old_links.md~",
      "kb/faq_copy.md~", "kb/.~lock.processes.md!"])
task("T-11", "iterate", "DA", ["totals", "region", "mismatch", "month", "correction"],
     ["合计", "地区", "不一致", "月份", "更正"], ["totales", "región", "discrepancia", "mes", "corrección"], None,
     ["data_summary.md^*", "sales_by_region.csv^", "regional_report.md^", "monthly_figures.txt", "notes_from_audit.md*",
      "q2_numbers.xlsx"])
task("T-12", "iterate", "DC", ["headings", "dates", "terminology", "formatting", "template"],
     ["标题", "日期", "术语", "格式", "模板"], ["títulos", "fechas", "terminología", "formato", "plantilla"], None,
     ["doc_intro.md^", "meeting_0301.md^", "meeting_0315.txt^", "project_brief.md^", "handbook_part2.md^",
      "style_guide.md*"])
task("T-13", "iterate", "DAE", ["scope", "costs", "reviewer", "revision", "approval"],
     ["范围", "成本", "评审人", "修订", "审批"], ["alcance", "costes", "revisor", "revisión", "aprobación"], None,
     ["proposal.md^*", "feedback_round1.txt*", "feedback_round2.txt", "proposal_old.md~", "tmp_merge.txt!",
      "reviewer_list.csv"])
task("T-14", "organize", "CD", ["version", "release", "change", "archive", "baseline"],
     ["版本", "发布", "变更", "归档", "基线"], ["versión", "publicación", "cambio", "archivo", "línea base"], None,
     ["plan_v1.docx", "plan_v2.docx", "plan_final.docx", "plan_final2.docx", "spec.md*", "spec_old.md",
      "spec_backup_0310.md", "changelog.txt^*", "notes_v1.txt", "notes_v2.txt", "budget_v3.xlsx"])
task("T-15", "synthesize", "ADB", ["discrepancy", "estimate", "source", "assumption", "reconciliation"],
     ["差异", "估计", "来源", "假设", "核对"], ["discrepancia", "estimación", "fuente", "supuesto", "conciliación"],
     (["reconciled", "report"], "核对报告", ["informe", "conciliado"]),
     ["report_team_a.md*", "report_team_b.md*", "raw_numbers.csv*", "meeting_notes.txt", "methodology.pdf"])
task("T-16", "understand", "AEBF", ["urgent", "deadline", "request", "meeting", "priority"],
     ["紧急", "截止", "请求", "会议", "优先级"], ["urgente", "plazo", "solicitud", "reunión", "prioridad"],
     (["triage", "plan"], "优先级安排", ["plan", "prioridades"]),
     [F_("inbox_{:02d}.eml", 5, 10, 1), "tasks.md*", "calendar.ics*", "attachment_budget.pdf",
      "screenshot_0412.png", "old_reminders.txt~", "~$tasks.md!", "inbox_export.tmp!"])
task("T-17", "understand", "AC", ["folders", "duplicates", "large files", "naming", "structure"],
     ["文件夹", "重复", "大文件", "命名", "结构"], ["carpetas", "duplicados", "archivos grandes", "nombres", "estructura"], None,
     ["readme.md*", "docs/2021/old/spec_2021.md", "docs/2021/old/minutes.txt", "docs/guide.md", "misc/stuff/photo_22.jpg",
      "misc/stuff/budget.xlsx", "misc/tmp/export.csv", "archive/2020/a/b/report.pdf", "notes_final.txt", "notes final.txt",
      "contacts.csv", "video_call.mp4", "plan.docx"])
task("T-18", "maintain", "DEC", ["tools", "processes", "onboarding", "FAQ", "glossary"],
     ["工具", "流程", "入职", "常见问题", "术语"], ["herramientas", "procesos", "incorporación", "preguntas frecuentes", "glosario"],
     (["new", "topic"], "新主题", ["tema", "nuevo"]),
     ["kb/tools.md^", "kb/processes.md^", "kb/onboarding.md^", "kb/faq.md^", "updates_round1.txt*",
      "updates_round2.txt*", "updates_round3.txt*", "kb/old_faq.md~", "kb/tmp_import.txt!"])
task("T-19", "iterate", "DB", ["audience", "jargon", "examples", "benefits", "summary"],
     ["受众", "术语", "案例", "收益", "摘要"], ["público", "jerga", "ejemplos", "beneficios", "resumen"],
     (["report", "for", "clients"], "客户版报告", ["informe", "clientes"]),
     ["tech_report.md^*", "audience_brief.txt*", "glossary.md"])
task("T-20", "create", "BCE", ["weekly goals", "progress", "blockers", "metrics", "template"],
     ["周目标", "进展", "阻碍", "指标", "模板"], ["objetivos semanales", "avance", "bloqueos", "métricas", "plantilla"],
     (["weekly", "report"], "周报", ["informe", "semanal"]), [])
task("T-21", "organize", "CAD", ["duplicates", "originals", "index", "versions", "sizes"],
     ["重复", "原件", "索引", "版本", "大小"], ["duplicados", "originales", "índice", "versiones", "tamaños"], None,
     ["photo.jpg", "photo (1).jpg", "notes.md*", "notes copy.md", "report final.docx", "report final (1).docx", "data.csv*",
      "data_old.csv", "contacts.csv", "contacts (2).csv", "index.md^*", "slides.pdf", "slides (1).pdf", "todo.txt"])
task("T-22", "understand", "AFB", ["director", "genre", "rating", "release year", "runtime"],
     ["导演", "类型", "评分", "上映年份", "片长"], ["director", "género", "valoración", "año de estreno", "duración"],
     (["film", "catalogue"], "电影目录", ["catalogo", "peliculas"]),
     ["film_list.csv*", F_("poster_{:02d}.jpg", 4, 9), "reviews.txt*", F_("trailer_{:02d}.mp4", 2, 4),
      "watch_history.xlsx"])
task("T-23", "organize", "CFA", ["cities", "days", "landmarks", "album", "captions"],
     ["城市", "日程", "景点", "相册", "说明"], ["ciudades", "días", "monumentos", "álbum", "pies de foto"], None,
     [F_("IMG_{:04d}.jpg", 12, 24, 3100), "itinerary.md*", "map_screenshot.png", "booking.pdf"])
task("T-24", "synthesize", "ABF", ["revenue", "margin", "guidance", "segment", "EPS"],
     ["营收", "利润率", "业绩指引", "业务板块", "每股收益"], ["ingresos", "margen", "previsiones", "segmento", "BPA"],
     (["earnings", "analysis"], "财报分析", ["analisis", "resultados"]),
     ["earnings_call_q3.mp3", "transcript_partial.txt*", "form_10q.pdf", "slides_q3.pdf", "consensus.xlsx",
      "prior_notes.md*"])
task("T-25", "understand", "AFB", ["incident", "evidence", "timestamp", "witness", "location"],
     ["事件", "证据", "时间点", "证人", "地点"], ["incidente", "prueba", "hora", "testigo", "lugar"],
     (["evidence", "review"], "证据梳理", ["revision", "pruebas"]),
     ["bodycam_clip_01.mp4", F_("photo_evidence_{:02d}.jpg", 3, 6), "statement_witness.txt*", "incident_report.pdf",
      "call_audio.mp3", "case_notes.md*"])
task("T-26", "organize", "CAF", ["receipts", "photos", "documents", "music", "scans"],
     ["收据", "照片", "文档", "音乐", "扫描件"], ["recibos", "fotos", "documentos", "música", "escaneos"], None,
     ["receipt_jan.pdf", "receipt_feb.pdf", "passport_scan.png", "DSC_0192.jpg", "DSC_0193.jpg", "DSC_0207.jpg",
      "song_demo.mp3", "cover_letter.docx", "tax_2023.pdf", "notes_home.txt*", "insurance.pdf", "wifi_passwords.txt",
      "family_budget.xlsx", "scan_0007.png", "list_of_things.md*"])
task("T-27", "create", "BFC", ["projects", "skills", "courses", "awards", "reflections"],
     ["项目", "技能", "课程", "奖项", "反思"], ["proyectos", "habilidades", "cursos", "premios", "reflexiones"],
     (["portfolio"], "作品集", ["portafolio"]),
     ["project_notes_1.md*", "project_notes_2.md", F_("screenshot_{:02d}.png", 2, 5), "transcript.pdf", "cv_old.docx"])
task("T-28", "synthesize", "ABF", ["feeding", "vaccination", "weight", "medication", "exercise"],
     ["喂食", "疫苗", "体重", "用药", "运动"], ["alimentación", "vacunas", "peso", "medicación", "ejercicio"],
     (["pet", "care", "guide"], "宠物护理手册", ["guia", "cuidado", "mascota"]),
     ["vet_records.pdf", "feeding_log.csv*", "care_notes.txt*", F_("pet_photo_{:02d}.jpg", 2, 5), "med_schedule.xlsx",
      "vaccination.txt"])
task("T-29", "organize", "CDA", ["registration", "industry", "region", "capital", "status"],
     ["注册", "行业", "地区", "注册资本", "状态"], ["registro", "sector", "región", "capital", "estado"], None,
     [F_("company_{:03d}_registration.pdf", 18, 30), "index_template.xlsx", "registry_notes.txt*"])
task("T-30", "iterate", "DFA", ["ideas", "reminders", "calls", "follow-up", "topics"],
     ["想法", "提醒", "电话", "跟进", "主题"], ["ideas", "recordatorios", "llamadas", "seguimiento", "temas"], None,
     [F_("memo_03{:02d}.mp3", 5, 10, 1), "transcript_0301.txt^*", "transcript_0304.txt^", "memo_index.md^*"])
task("T-31", "create", "BFC", ["species", "habitat", "footage", "season", "location"],
     ["物种", "栖息地", "素材", "季节", "地点"], ["especies", "hábitat", "metraje", "estación", "lugar"],
     (["nature", "collection"], "自然影像合集", ["coleccion", "naturaleza"]),
     [F_("clip_{:02d}.mp4", 8, 15), "field_notes.md*", "species_list.csv*"])
task("T-32", "maintain", "DAF", ["catalog", "mismatch", "item", "description", "thumbnail"],
     ["目录", "不一致", "藏品", "描述", "缩略图"], ["catálogo", "discrepancia", "pieza", "descripción", "miniatura"], None,
     ["catalog.csv^*", F_("item_{:03d}.jpg", 5, 10, 101), "descriptions.md^*", "archive_index.md", F_("audio_guide_{:02d}.mp3", 1, 3)])

TYPE_OF = {tid: t["type"] for tid, t in T.items()}


def neighbour(t, rng):
    if t == "M":
        return rng.choice("LR")
    return "M"


def sha16(b):
    return hashlib.sha256(b).hexdigest()[:16]


def ext_of(rel):
    base = posixpath.basename(rel)
    if "." not in base.lstrip("."):
        return ""
    return base.rsplit(".", 1)[1].lower()


# --------------------------------------------------------------------------- text generation
class Gen:
    def __init__(self, rng, lang, kws, style="short"):
        self.r, self.lang, self.kws, self.style = rng, lang, kws, style
        self.p = LANG[lang]

    def _fill(self, tpl):
        r, p = self.r, self.p
        k, k2 = r.sample(self.kws, 2)
        ppl = r.choice(p["ppl"])
        d = dict(k=k, k2=k2, K=k[:1].upper() + k[1:], n=r.choice(p["n"]), adj=r.choice(p["adj"]),
                 vb=r.choice(p["vb"]), vpn=r.choice(p["vpn"]), vp=r.choice(p["vp"]), per=r.choice(p["per"]),
                 ppl=ppl, Ppl=ppl[:1].upper() + ppl[1:], tm=r.choice(p["tm"]), pct=r.randint(2, 38),
                 num=r.randint(6, 140), num2=r.randint(1, 9))
        return tpl.format(**d)

    def sentence(self):
        return self._fill(self.r.choice(self.p["tmpl"]))

    def sentences(self, n):
        return self.p["sep"].join(self.sentence() for _ in range(n))

    def para(self):
        if self.style == "para":
            return self.sentences(self.r.randint(3, 6))
        return self.sentences(self.r.choice([1, 1, 1, 2]))

    def bullet(self, mark="- "):
        if self.style == "para":
            return mark + self.sentences(self.r.choice([1, 2, 2, 3]))
        return mark + self.sentence()

    def heading_text(self):
        return self._fill(self.r.choice(self.p["head"]))

    def heading(self, level, txt=False):
        h = self.heading_text()
        if txt:
            if self.lang == "zh":
                return h if level > 1 else "【" + h + "】"
            return h.upper() if level <= 2 else h + ":"
        return "#" * level + " " + h

    def table(self, nrows):
        r, p = self.r, self.p
        cols = r.choice(p["cols"])
        out = ["| " + " | ".join(cols) + " |", "|" + "|".join(["---"] * len(cols)) + "|"]
        for _ in range(nrows):
            if cols is p["cols"][1]:
                a = r.randint(10, 900)
                b = a + r.randint(-80, 120)
                row = [r.choice(self.kws), str(a), str(b), f"{(b - a) / max(a, 1) * 100:+.1f}%"]
            elif cols is p["cols"][0]:
                row = [r.choice(self.kws), r.choice(p["ppl"]), r.choice(p["status"]),
                       f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"]
            else:
                row = [r.choice(self.kws), r.choice(p["n"]), f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
                       r.choice(p["adj"])]
            out.append("| " + " | ".join(row) + " |")
        return out

    def document(self, shape, target, tables=0, txt=False, title=None):
        """shape: 'deep' (multi-level headings), 'sect' (h2 sections), 'list' (mostly bullets),
        'note' (loose notes).  target: approx. number of lines."""
        r = self.r
        L = []
        if shape != "note" or r.random() < 0.5:
            if title is None:
                title = self.heading_text()
            L += [("# " + title) if not txt else (title.upper() if self.lang != "zh" else "【" + title + "】"), ""]
        table_at = set()
        if tables:
            table_at = set(r.sample(range(1, 40), min(tables, 39)))
        sec = 0
        blank = self.style == "para" or r.random() < 0.5
        while len(L) < target:
            sec += 1
            if shape == "deep":
                L += [self.heading(2, txt), ""]
                for _ in range(r.randint(1, 3)):
                    L += [self.heading(3, txt)]
                    if r.random() < 0.35:
                        L += [self.heading(4, txt)]
                    for _ in range(r.randint(1, 3)):
                        L.append(self.para())
                        if blank:
                            L.append("")
                    for _ in range(r.randint(2, 6)):
                        L.append(self.bullet())
                    L.append("")
            elif shape == "sect":
                L += [self.heading(2, txt), ""]
                for _ in range(r.randint(1, 2)):
                    L.append(self.para())
                    if blank:
                        L.append("")
                for _ in range(r.randint(2, 6)):
                    L.append(self.bullet())
                L.append("")
            elif shape == "list":
                if sec > 1 and r.random() < 0.3:
                    L += ["", self.heading(2, txt)]
                for _ in range(r.randint(4, 10)):
                    L.append(self.bullet(r.choice(["- ", "- ", "* "]) if not txt else "- "))
            else:  # note
                for _ in range(r.randint(3, 8)):
                    L.append(self.sentence() if r.random() < 0.6 else self.bullet())
            if sec in table_at:
                L += [""] + self.table(r.randint(4, 11)) + [""]
        if tables and not any(x.startswith("|") for x in L):
            L += [""] + self.table(r.randint(4, 10))
        while L and L[-1] == "":
            L.pop()
        if shape == "list" and len(L) > target + 3:
            L = L[:target]
        return "\n".join(L) + "\n"

    def csv(self, nrows, cols=None):
        r = self.r
        cols = cols or ["id", "name", "date", "value", "status"]
        out = [",".join(cols)]
        for i in range(nrows):
            row = []
            for c in cols:
                if c == "id":
                    row.append(str(i + 1))
                elif c in ("date",):
                    row.append(f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}")
                elif c in ("value", "amount", "q1", "q2", "count", "size_kb"):
                    row.append(str(round(r.uniform(1, 5000), r.choice([0, 2]))).rstrip("0").rstrip("."))
                elif c == "status":
                    row.append(r.choice(["ok", "check", "done", "open", "missing"]))
                else:
                    row.append(r.choice(self.kws).replace(",", " "))
            out.append(",".join(row))
        return "\n".join(out) + "\n"

    def eml(self):
        r = self.r
        body = [self.sentence() for _ in range(r.randint(4, 14))]
        return "\n".join([f"From: {r.choice(['dana', 'marco', 'office', 'lucia', 'wang'])}@example.com",
                          "To: me@example.com", "Subject: " + self.heading_text(),
                          f"Date: 2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}", ""] + body) + "\n"

    def ics(self):
        r = self.r
        L = ["BEGIN:VCALENDAR", "VERSION:2.0"]
        for _ in range(r.randint(2, 6)):
            L += ["BEGIN:VEVENT", f"DTSTART:2024{r.randint(1, 12):02d}{r.randint(1, 28):02d}T{r.randint(8, 17):02d}0000",
                  "SUMMARY:" + self.heading_text(), "END:VEVENT"]
        return "\n".join(L + ["END:VCALENDAR"]) + "\n"


# --------------------------------------------------------------------------- naming helpers
def split_words(stem):
    s = re.sub(r"([a-z])([A-Z])", r"\1 \2", stem)
    return [w for w in re.split(r"[^0-9A-Za-z\u4e00-\u9fff]+", s) if w]


def apply_conv(words, conv, date=None):
    words = [w for w in words if w]
    if conv == "snake":
        s = "_".join(w.lower() for w in words)
    elif conv == "kebab":
        s = "-".join(w.lower() for w in words)
    elif conv == "camel":
        s = "".join(w[:1].upper() + w[1:].lower() for w in words)
    elif conv == "title":
        s = " ".join(w[:1].upper() + w[1:] for w in words)
    else:  # dated
        s = "_".join(w.lower() for w in words)
        if date is not None:
            s = date.strftime("%Y-%m-%d") + "_" + s
    return s


def style_of(stem):
    if " " in stem or "(" in stem or ("_" in stem and "-" in stem):
        return "mixed"
    if "_" in stem:
        return "snake" if stem == stem.lower() else "mixed"
    if "-" in stem:
        return "kebab" if stem == stem.lower() else "mixed"
    if re.match(r"^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)+$", stem):
        return "camel"
    return "plain"


def pattern_change(old, new):
    o, n = posixpath.splitext(posixpath.basename(old))[0], posixpath.splitext(posixpath.basename(new))[0]
    so, sn = style_of(o), style_of(n)
    if so == "snake" and sn == "kebab":
        return "snake_to_kebab"
    if so == "kebab" and sn == "snake":
        return "kebab_to_snake"
    if o.lower() == n.lower() or [w.lower() for w in split_words(o)] == [w.lower() for w in split_words(n)] and so == sn:
        return "case_change"
    if so == "mixed":
        return "mixed_to_other"
    return "other"


# --------------------------------------------------------------------------- users
EN_LOGINS = ["jmorgan", "kpatel", "sreed", "abrooks", "tnguyen", "lfoster", "dcarter", "mhughes", "rbennett", "cwalsh"]
ZH_LOGINS = ["wangl", "chenyu", "liuxm", "zhaoj", "sunhui", "hefang"]
ES_LOGINS = ["mgarcia", "lortiz", "jfernandez", "cruiz", "asanchez"]
ROLE_W = {  # weights over task types
    "research": dict(understand=3, synthesize=4, create=1.5, iterate=2, organize=1, maintain=1),
    "ops": dict(understand=1.5, synthesize=1, create=1.5, iterate=1.5, organize=4, maintain=3),
    "writer": dict(understand=1.5, synthesize=2, create=3, iterate=4, organize=1, maintain=1.5),
    "assistant": dict(understand=3, synthesize=1, create=2, iterate=1.5, organize=2.5, maintain=2),
    "mixed": dict(understand=2, synthesize=2, create=2, iterate=2, organize=2, maintain=2),
}


def make_users(rng):
    n = 14
    tiers = {}
    for d in DIMS:
        pool = list("LLLLLMMMMMRRRR")
        rng.shuffle(pool)
        tiers[d] = pool
    langs = ["en"] * 7 + ["zh"] * 4 + ["es"] * 3
    rng.shuffle(langs)
    en_l, zh_l, es_l = EN_LOGINS[:], ZH_LOGINS[:], ES_LOGINS[:]
    for logins in (en_l, zh_l, es_l):
        rng.shuffle(logins)
    users = []
    for i in range(n):
        lang = langs[i]
        login = {"en": en_l, "zh": zh_l, "es": es_l}[lang].pop()
        style = rng.choice(["short", "para"])
        base_eps = rng.uniform(0.10, 0.30)
        dtw = {"md": rng.uniform(0.2, 1), "txt": rng.uniform(0.05, 0.6), "docx": rng.uniform(0, 0.7)}
        lw = {"agent": rng.uniform(0.5, 1.0), "ide": rng.uniform(0.0, 0.35), "fsrec": rng.uniform(0.0, 0.35)}
        role = rng.choice(list(ROLE_W))
        u = dict(
            uid=f"q{i:02d}", lang=lang, login=login, role=role,
            tiers={d: tiers[d][i] for d in DIMS},
            style=style,
            mult=rng.uniform(0.95, 1.3) if style == "short" else rng.uniform(0.62, 0.9),
            eps={d: min(0.33, max(0.08, base_eps + rng.uniform(-0.05, 0.05))) for d in DIMS},
            pace=rng.uniform(0.5, 2.0), read_cps=rng.uniform(25, 90), write_lps=rng.uniform(0.1, 0.45),
            revisit_frac=rng.uniform(0.3, 0.7), n_search=(1, rng.choice([2, 3, 4])), skim=rng.randint(5, 25),
            passes=(rng.randint(3, 4), rng.randint(5, 8)), backup_p=rng.uniform(0.6, 0.95),
            backup_style=rng.choice(["v", "bak", "copy", "dated", "orig"]),
            n_charts=(1, rng.randint(2, 4)), doc_w=dtw, data_pref=rng.choice(["csv", "csv", "xlsx"]),
            naming=rng.choice(["snake", "snake", "kebab", "camel", "title", "dated"]),
            native=rng.uniform(0.3, 0.9) if lang != "en" else 0.0,
            native_dirs=rng.random() < 0.5 if lang != "en" else False,
            logw=lw, long_p=rng.uniform(0.2, 0.6), n_sessions=rng.randint(20, 28),
            typew={k: v * rng.uniform(0.6, 1.5) for k, v in ROLE_W[role].items()},
            home=(f"/home/{login}/work" if rng.random() < 0.5 else f"/Users/{login}/Documents"),
            start=dt.datetime(2024, rng.randint(2, 9), rng.randint(1, 25), tzinfo=dt.UTC),
            hour0=rng.uniform(7.5, 10.5), tz=rng.choice([-5, 1, 8, 8, -3]),
            mkdir_names=rng.sample(["reports", "notes", "docs", "output", "work"], 3),
            deep_base=rng.choice(["projects", "archive", "work", "docs"]), deep_pat=rng.randrange(3),
        )
        users.append(u)
    return users


def wchoice(rng, d):
    ks = list(d)
    return rng.choices(ks, weights=[d[k] for k in ks])[0]


# --------------------------------------------------------------------------- session state
class Sess:
    def __init__(self, u, sid, root, start_ms, logger, rng, date):
        self.u, self.sid, self.root, self.logger, self.r, self.date = u, sid, root, logger, rng, date
        self.now = start_ms
        self.files = {}
        self.dirs = {""}
        self.events, self.media = [], {}
        self.reads = {}
        self.focus = None
        self.switches = 0
        self.last_read = None
        self.last_search = None

    # -- basics
    def A(self, rel):
        return posixpath.join(self.root, rel) if rel else self.root

    def wait(self, sec):
        self.now += max(0.04, sec) * 1000.0 * self.u["pace"] * self.r.lognormvariate(0, 0.35)

    def cap(self, et):
        return et in LOGGERS[self.logger]

    def emit(self, et, **f):
        if not self.cap(et):
            return None
        self.now += self.r.uniform(3, 60)
        e = {"event_id": str(uuid.UUID(int=self.r.getrandbits(128), version=4)), "event_type": et,
             "timestamp": round(self.now, 3), "session_id": self.sid, "profile_id": self.u["uid"],
             "message_id": None, "model_provider": None, "model_name": None}
        e.update(f)
        self.events.append(e)
        return e

    def store(self, data, kind):
        b = data.encode("utf-8")
        h = sha16(b)
        self.media[h] = (kind, b)
        return h

    @staticmethod
    def fdepth(rel):
        return rel.count("/")

    @staticmethod
    def ddepth(reldir):
        return 0 if reldir == "" else reldir.count("/") + 1

    def add_file(self, rel, text=None, size=None, created=None, tmp=False, flags=""):
        ext = ext_of(rel)
        self.mkdirs_silent(posixpath.dirname(rel))
        binary = text is None
        self.files[rel] = dict(text=text, size=(len(text) if text is not None else int(size)), ext=ext,
                               created=created if created is not None else self.now, tmp=tmp, binary=binary,
                               flags=flags, hash=sha16(text.encode()) if text is not None else
                               sha16(f"{self.sid}:{rel}:{size}".encode()))

    def mkdirs_silent(self, d):
        parts = d.split("/") if d else []
        for i in range(1, len(parts) + 1):
            self.dirs.add("/".join(parts[:i]))

    def uniq(self, rel):
        if rel not in self.files:
            return rel
        stem, ext = posixpath.splitext(rel)
        i = 2
        while f"{stem}_{i}{ext}" in self.files:
            i += 1
        return f"{stem}_{i}{ext}"

    def switch(self, rel, trigger):
        if self.focus is not None and self.focus != rel and self.focus in self.files and self.r.random() < 0.9:
            if self.cap("context_switch"):
                self.switches += 1
                self.emit("context_switch", from_file=self.A(self.focus), to_file=self.A(rel), trigger=trigger,
                          switch_count=self.switches)
        self.focus = rel

    # -- actions
    def browse(self, d=""):
        self.wait(2)
        n = sum(1 for f in self.files if posixpath.dirname(f) == d) + \
            sum(1 for x in self.dirs if x and posixpath.dirname(x) == d)
        self.emit("file_browse", directory_path=self.A(d), files_listed=n, depth=self.ddepth(d))
        self.wait(1.5 + 0.3 * n)

    def search(self, stype, query, matched):
        self.wait(3)
        e = self.emit("file_search", search_type=stype, query=query, files_matched=len(matched),
                      files_opened_after=[])
        self.last_search = (e, self.now, set(matched), self.focus) if e else None
        self.wait(2)
        return e

    def read(self, rel, rng=None, trigger="user_navigation", linger=1.0):
        f = self.files[rel]
        self.wait(2.5)
        via_search = self.last_search and rel in self.last_search[2] and self.now - self.last_search[1] < 240e3
        self.switch(rel, "search_result" if via_search else trigger)
        cnt, last = self.reads.get(rel, (0, None))
        cnt += 1
        if f["binary"]:
            vr, clen = None, f["size"]
        else:
            lines = f["text"].split("\n")
            if lines and lines[-1] == "":
                lines = lines[:-1]
            nl = max(1, len(lines))
            if rng is None:
                a, b = 1, nl
            else:
                a, b = max(1, min(rng[0], nl)), max(1, min(rng[1], nl))
                if b < a:
                    a, b = b, a
            vr = [a, b]
            clen = len("\n".join(lines[a - 1:b]))
        if self.logger == "fsrec":
            vr, clen = None, f["size"]
        self.emit("file_read", file_path=self.A(rel), file_type=f["ext"], directory_depth=self.fdepth(rel),
                  view_count=cnt, view_range=vr, content_length=clen,
                  revisit_interval_ms=None if last is None else round(self.now - last, 1))
        if via_search:
            e, ts, _m, prev = self.last_search
            if e is not None and self.A(rel) not in e["files_opened_after"]:
                e["files_opened_after"].append(self.A(rel))
            src = prev if prev and prev in self.files and prev != rel else None
            if src and self.r.random() < 0.85:
                self.emit("cross_file_reference", source_file=self.A(src), target_file=self.A(rel),
                          reference_type="search_then_read", interval_ms=round(self.now - ts, 1))
        elif self.last_read and self.last_read[0] != rel and self.last_read[0] in self.files \
                and self.now - self.last_read[1] < 600e3 and self.r.random() < 0.6:
            self.emit("cross_file_reference", source_file=self.A(self.last_read[0]), target_file=self.A(rel),
                      reference_type="sequential_access", interval_ms=round(self.now - self.last_read[1], 1))
        self.reads[rel] = (cnt, self.now)
        self.last_read = (rel, self.now)
        self.wait(min(240, linger * (clen if not f["binary"] else 3000) / self.u["read_cps"]))

    def _ref_before_change(self, rel):
        if self.last_read and self.last_read[0] != rel and self.last_read[0] in self.files \
                and self.now - self.last_read[1] < 900e3 and self.r.random() < 0.6:
            self.emit("cross_file_reference", source_file=self.A(self.last_read[0]), target_file=self.A(rel),
                      reference_type="read_then_edit", interval_ms=round(self.now - self.last_read[1], 1))

    def write(self, rel, text=None, size=None, tmp=False):
        exists = rel in self.files
        assert posixpath.dirname(rel) in self.dirs, rel
        nlines = text.count("\n") if text is not None else 20
        self.wait(4 + nlines / self.u["write_lps"] * 0.25)
        self.switch(rel, "file_creation" if not exists else "edit_target")
        self._ref_before_change(rel)
        before = self.files[rel]["hash"] if exists else None
        if text is not None:
            h = self.store(text, "blob")
            mref = {"type": "blob", "hash": h, "path": f"media/blobs/{h}.blob"}
            clen = len(text)
        else:
            h = sha16(f"{self.sid}:{rel}:{self.now}:{size}".encode())
            mref, clen = None, int(size)
        self.emit("file_write", file_path=self.A(rel), file_type=ext_of(rel), directory_depth=self.fdepth(rel),
                  operation="overwrite" if exists else "create", content_length=clen, before_hash=before,
                  after_hash=h, media_ref=mref)
        created = self.files[rel]["created"] if exists else self.now
        was_tmp = self.files[rel]["tmp"] if exists else tmp
        self.files[rel] = dict(text=text, size=clen, ext=ext_of(rel), created=created, tmp=was_tmp,
                               binary=text is None, flags="", hash=h)
        self.wait(1)

    def edit(self, rel, new, tool):
        f = self.files[rel]
        old = f["text"]
        ol, nl_ = old.splitlines(), new.splitlines()
        diff = list(difflib.unified_diff(ol, nl_, fromfile="a/" + posixpath.basename(rel),
                                         tofile="b/" + posixpath.basename(rel), lineterm=""))
        add = sum(1 for x in diff if x.startswith("+") and not x.startswith("+++"))
        dele = sum(1 for x in diff if x.startswith("-") and not x.startswith("---"))
        if add + dele == 0:
            return 0
        self.wait(5 + (add + dele) * 1.5)
        self.switch(rel, "edit_target")
        self._ref_before_change(rel)
        dtext = "\n".join(diff) + "\n"
        ho, hn, hd = self.store(old, "blob"), self.store(new, "blob"), self.store(dtext, "diff")
        self.emit("file_edit", file_path=self.A(rel), file_type=f["ext"], edit_tool=tool, lines_added=add,
                  lines_deleted=dele, lines_modified=min(add, dele), diff_summary=f"+{add} -{dele}",
                  before_hash=ho, after_hash=hn,
                  media_ref_old={"type": "blob", "hash": ho, "path": f"media/blobs/{ho}.blob"},
                  media_ref_new={"type": "blob", "hash": hn, "path": f"media/blobs/{hn}.blob"},
                  media_ref_diff={"type": "diff", "hash": hd, "path": f"media/diffs/{hd}.diff"})
        f["text"], f["size"], f["hash"] = new, len(new), hn
        return add + dele

    def mkdir(self, d):
        parts = d.split("/") if d else []
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            if p in self.dirs:
                continue
            par = posixpath.dirname(p)
            sib = sum(1 for x in self.dirs if x and posixpath.dirname(x) == par)
            self.wait(1.5)
            self.emit("dir_create", dir_path=self.A(p), depth=self.ddepth(p), sibling_count=sib)
            self.dirs.add(p)

    def _relocate(self, old, new):
        self.files[new] = self.files.pop(old)
        if old in self.reads:
            self.reads[new] = self.reads.pop(old)
        if self.focus == old:
            self.focus = new
        if self.last_read and self.last_read[0] == old:
            self.last_read = (new, self.last_read[1])

    def move(self, rel, d):
        new = self.uniq(posixpath.join(d, posixpath.basename(rel)) if d else posixpath.basename(rel))
        if new == rel:
            return rel
        self.wait(1.2)
        self.emit("file_move", old_path=self.A(rel), new_path=self.A(new), destination_directory_depth=self.ddepth(d))
        self._relocate(rel, new)
        return new

    def rename(self, rel, newbase):
        new = posixpath.join(posixpath.dirname(rel), newbase)
        if new == rel or new in self.files:
            return rel
        self.wait(2)
        self.emit("file_rename", old_path=self.A(rel), new_path=self.A(new),
                  naming_pattern_change=pattern_change(rel, new))
        self._relocate(rel, new)
        return new

    def copy(self, src, dst, backup):
        dst = self.uniq(dst)
        self.wait(1.5)
        self.emit("file_copy", source_path=self.A(src), dest_path=self.A(dst), is_backup=backup)
        f = dict(self.files[src])
        f["created"] = self.now
        self.files[dst] = f
        return dst

    def delete(self, rel):
        f = self.files[rel]
        self.wait(1.5)
        self.emit("file_delete", file_path=self.A(rel), file_age_ms=round(self.now - f["created"], 1),
                  was_temporary=bool(f["tmp"]))
        del self.files[rel]
        if self.focus == rel:
            self.focus = None


# --------------------------------------------------------------------------- job runner
TMP_RE = re.compile(r"(^~\$|\.tmp$|^tmp|^\.~lock|scratch|临时|草稿纸|rapido)", re.I)


class Job:
    def __init__(self, S, u, task, tiers, shift, rng, jobno):
        self.S, self.u, self.task, self.r = S, u, task, rng
        self.dims = task["dims"]
        self.kw = task["kw"][u["lang"]]
        self.kw_en = task["kw"]["en"]
        self.t = {}
        for d in self.dims:
            base = tiers[d]
            if shift and shift[0] == d:
                self.t[d] = base
                continue
            if rng.random() < u["eps"][d]:
                if d in "ACEF" and rng.random() < 0.3:
                    self.t[d] = "skip"
                else:
                    self.t[d] = neighbour(base, rng)
            else:
                self.t[d] = base
        self.inputs, self.keys, self.targets, self.temps = [], [], [], []
        self.created_tmp = []
        self.jobno = jobno
        self.forced = shift[0] if shift else None

    # -- helpers
    def gen(self, style=None, lang=None):
        lang = lang or self.u["lang"]
        kws = self.task["kw"][lang]
        return Gen(self.r, lang, kws, style or self.u["style"])

    def name(self, words_triple, ext, native=None):
        u, r = self.u, self.r
        en, zh, es = words_triple
        native = u["native"] if native is None else native
        conv = u["naming"] if r.random() > 0.12 else r.choice(["snake", "kebab", "camel", "title"])
        if u["lang"] == "zh" and r.random() < native:
            base = zh
            if conv == "dated":
                base = self.S.date.strftime("%Y%m%d") + "_" + base
        elif u["lang"] == "es" and r.random() < native:
            base = apply_conv(es, conv, self.S.date)
        else:
            base = apply_conv(en, conv, self.S.date)
        return base + "." + ext

    def stem(self, key):
        return STEMS[key]

    def folder(self, key):
        en, zh, es = FOLDERS[key]
        if self.u["native_dirs"]:
            return zh if self.u["lang"] == "zh" else es
        return en

    def doc_ext(self, tf=None):
        e = wchoice(self.r, self.u["doc_w"])
        if tf == "M" and e != "md" and self.r.random() < 0.75:
            e = "md"
        return e

    def tool(self):
        return {"agent": self.r.choice(["str_replace", "str_replace", "apply_patch"]),
                "ide": "editor_save", "fsrec": "fs_diff"}[self.S.logger]

    # -- materialise the input workspace
    def materialise(self):
        S, r, u = self.S, self.r, self.u
        specs = []
        for it in self.task["inputs"]:
            if isinstance(it, tuple):
                _, pat, lo, hi, start, flags = it
                for i in range(r.randint(lo, hi)):
                    specs.append((pat.format(start + i), flags))
            else:
                m = re.match(r"^(.*?)([*^!~]*)$", it)
                specs.append((m.group(1), m.group(2)))
        # keep all flagged, subsample the rest (job size varies)
        keep_p = r.uniform(0.65, 1.0)
        kept = [(n, fl) for n, fl in specs if fl or r.random() < keep_p]
        in_lang = u["lang"] if r.random() < 0.7 else "en"
        g = Gen(r, in_lang, self.task["kw"][in_lang], "short")
        for name, fl in kept:
            rel = S.uniq(name)
            ext = ext_of(rel)
            age = r.uniform(0.5, 60) * 86400e3
            tmp = "!" in fl
            if ext in ("md", "txt"):
                n = r.randint(90, 190) if "^" in fl else r.randint(12, 90)
                shape = r.choice(["sect", "list", "note", "sect"]) if "^" not in fl else "sect"
                text = g.document(shape, n, tables=1 if (ext == "md" and r.random() < 0.25) else 0, txt=ext == "txt")
                S.add_file(rel, text=text, created=S.now - age, tmp=tmp, flags=fl)
            elif ext == "csv":
                S.add_file(rel, text=g.csv(r.randint(8, 60), ["id", "name", "date", "value", "status"]),
                           created=S.now - age, tmp=tmp, flags=fl)
            elif ext == "eml":
                S.add_file(rel, text=g.eml(), created=S.now - age, tmp=tmp, flags=fl)
            elif ext == "ics":
                S.add_file(rel, text=g.ics(), created=S.now - age, tmp=tmp, flags=fl)
            elif ext in BIN_SIZE:
                lo, hi = BIN_SIZE[ext]
                S.add_file(rel, size=int(r.uniform(lo, hi)), created=S.now - age, tmp=tmp, flags=fl)
            else:  # .tmp etc: small text blob
                S.add_file(rel, text=g.document("note", r.randint(3, 10)), created=S.now - age, tmp=tmp, flags=fl)
            self.inputs.append(rel)
            if "*" in fl:
                self.keys.append(rel)
            if "^" in fl:
                self.targets.append(rel)
            if "!" in fl or "~" in fl:
                self.temps.append(rel)
        if not self.keys:
            self.keys = [x for x in self.inputs if not S.files[x]["binary"]][:2] or self.inputs[:1]

    def live(self, rels):
        return [x for x in rels if x in self.S.files]

    # -- A: consumption
    def consume(self, rels=None):
        S, r, u = self.S, self.r, self.u
        rels = self.live(rels if rels is not None else self.inputs)
        rels = [x for x in rels if x not in self.temps or r.random() < 0.5]
        if not rels:
            return
        t = self.t.get("A")
        tf = self.t.get("F") if "F" in self.dims else None
        media_p = {"L": 0.9, "M": 0.5, "R": 0.12, "skip": 0.1}.get(tf, 0.3)
        text = [x for x in rels if not S.files[x]["binary"]]
        media = [x for x in rels if S.files[x]["binary"] and (r.random() < media_p or not text)]
        keys = self.live(self.keys) or text[:2] or rels[:1]
        if t is None or t == "skip":
            for x in keys[:r.randint(1, 3)]:
                S.read(x)
            return
        if t == "L":
            if r.random() < 0.4:
                S.browse("")
            order = sorted(text) + sorted(media)
            for x in order:
                S.read(x, linger=1.2)
            nre = max(1, round(len(text) * u["revisit_frac"] * r.uniform(0.6, 1.3)))
            pool = (self.live(keys) + [x for x in text if x not in keys])[:max(1, nre)]
            for x in pool:
                S.wait(r.uniform(10, 60))
                S.read(x, linger=0.8)
            if pool and r.random() < 0.4:
                S.read(pool[0], linger=0.6)
        elif t == "M":
            if r.random() < 0.2 and S.cap("file_browse"):
                S.browse("")
            nq = r.randint(*u["n_search"])
            opened = 0
            for _ in range(nq):
                kind = r.choice(["grep", "grep", "grep", "glob", "find"])
                if kind == "grep" and text:
                    q = r.choice(self.kw + self.task["kw"]["en"][:2])
                    hits = [x for x in text if q.lower() in S.files[x]["text"].lower()]
                    if not hits:
                        q = r.choice([w for w in LANG[self.u["lang"]]["n"]])
                        hits = [x for x in text if q.lower() in S.files[x]["text"].lower()]
                elif kind == "glob":
                    ext = r.choice(sorted({S.files[x]["ext"] for x in rels}))
                    q = f"*.{ext}" if r.random() < 0.6 else f"**/*.{ext}"
                    hits = [x for x in rels if S.files[x]["ext"] == ext]
                else:
                    w = r.choice(["report", "notes", "2024", "final", "summary", "data", "case", "plan"])
                    q = f"-iname '*{w}*'"
                    hits = [x for x in rels if w in x.lower()]
                S.search(kind, q, hits)
                for x in hits[:r.randint(1, 3)]:
                    f = S.files[x]
                    if f["binary"]:
                        S.read(x)
                    else:
                        lines = f["text"].split("\n")
                        idx = next((i for i, ln in enumerate(lines) if kind == "grep" and q.lower() in ln.lower()),
                                   r.randrange(max(1, len(lines))))
                        a = max(1, idx + 1 - r.randint(2, 8))
                        S.read(x, rng=(a, a + r.randint(10, 40)), trigger="search_result", linger=1.0)
                    opened += 1
            if opened == 0 and keys:
                S.read(keys[0], rng=(1, r.randint(20, 50)))
            if r.random() < 0.25 and keys:
                S.wait(r.uniform(20, 90))
                S.read(keys[0], rng=(r.randint(1, 20), r.randint(30, 70)))
            for x in media[:r.randint(0, 2)]:
                S.read(x)
        else:  # R
            S.browse("")
            subdirs = sorted({posixpath.dirname(x) for x in rels if posixpath.dirname(x)})
            for d in subdirs[:r.randint(1, 5)]:
                S.browse(d)
            if r.random() < 0.5:
                S.browse("")
            pick = [x for x in text + media if r.random() < r.uniform(0.6, 1.0)] or rels[:2]
            r.shuffle(pick)
            for x in pick:
                if S.files[x]["binary"]:
                    S.read(x, linger=0.2)
                else:
                    S.read(x, rng=(1, max(3, u["skim"] + r.randint(-3, 6))), linger=0.5)
                if r.random() < 0.25 and S.cap("file_browse"):
                    S.browse(posixpath.dirname(x))
            if r.random() < 0.06 and pick:
                S.read(pick[0], rng=(1, u["skim"]))

    # -- C: where new things go
    def place(self, purpose="reports"):
        S, r = self.S, self.r
        tc = self.t.get("C")
        if tc in (None, "skip", "R"):
            return ""
        if tc == "M":
            d = self.folder(purpose if purpose in FOLDERS else r.choice(self.u["mkdir_names"]))
            if r.random() < 0.3:
                d += "/" + (self.S.date.strftime("%Y-%m") if r.random() < 0.5 else self.folder("drafts" if purpose != "drafts" else "misc"))
            S.mkdir(d)
            return d
        depth = r.choice([3, 3, 4, 4, 5])
        conv = self.u["naming"] if self.u["naming"] in ("snake", "kebab") else "snake"
        proj = apply_conv(split_words(r.choice(self.kw_en[:3])), conv)
        base = self.folder(self.u["deep_base"])
        purp = self.folder(purpose if purpose in FOLDERS else "reports")
        yr, q, mo = str(S.date.year), f"q{(S.date.month - 1) // 3 + 1}", S.date.strftime("%m")
        pat = self.u["deep_pat"]
        if pat == 0:
            parts = [base, proj, yr, q, purp]
        elif pat == 1:
            parts = [base, yr, mo, proj, purp]
        else:
            parts = [purp, yr, proj, S.date.strftime("%m-%d"), base]
        if pat == 2:
            d = "/".join(parts[:depth])
        else:
            d = "/".join(parts[:depth - 1] + [parts[-1]])
        S.mkdir(d)
        return d

    def sibling_dir(self, base, key):
        if not base:
            return ""
        if self.t.get("C") == "L":
            d = posixpath.join(posixpath.dirname(base) or base, self.folder(key))
            self.S.mkdir(d)
            return d
        return base

    # -- B: production
    def produce(self, title_stem=None, extra_tables=None):
        S, r, u = self.S, self.r, self.u
        tb = self.t.get("B")
        tf = self.t.get("F") if "F" in self.dims else None
        if tb is None:
            return []
        stem = title_stem or self.task["out"] or (["summary"], "总结", ["resumen"])
        outdir = self.place("reports")
        g = self.gen()
        m = u["mult"]
        ntab = 0
        if tf == "M":
            ntab = r.choice([1, 1, 2, 3])
        created = []
        if tb == "L":
            total = int(r.randint(200, 330) * m)
            nfiles = r.choice([3, 3, 4, 5])
            shares = [r.uniform(0.4, 0.6)] + [r.uniform(0.1, 0.3) for _ in range(nfiles - 1)]
            s = sum(shares)
            extras = r.sample(["appendix", "sources", "details", "timeline", "glossary", "notes"], nfiles - 1)
            plan = [(stem, int(total * shares[0] / s), "deep")] + \
                   [(STEMS[e], int(total * sh / s), r.choice(["deep", "sect"])) for e, sh in zip(extras, shares[1:], strict=True)]
        elif tb == "M":
            plan = [(stem, int(r.randint(80, 150) * m), "sect")]
        else:
            plan = [(stem, max(8, min(60, int(r.randint(15, 60) * m))), "list")]
        for i, (st, nl, shape) in enumerate(plan):
            ext = self.doc_ext(tf)
            d = outdir if i == 0 else (self.sibling_dir(outdir, "notes") if r.random() < 0.5 else outdir)
            rel = S.uniq(posixpath.join(d, self.name(st, ext)) if d else self.name(st, ext))
            # A-active writers look back at sources while writing
            ta = self.t.get("A")
            src = self.live(self.keys)
            if src and ta == "L" and i > 0:
                S.read(r.choice(src), linger=0.6)
            elif src and ta == "M" and r.random() < 0.5:
                x = r.choice(src)
                if not S.files[x]["binary"]:
                    S.read(x, rng=(r.randint(1, 30), r.randint(31, 60)), linger=0.6)
            tabs = ntab if i == 0 else 0
            text = g.document(shape, nl, tables=tabs, txt=ext == "txt")
            if ext == "docx":
                S.write(rel, size=int(len(text.encode()) * r.uniform(1.1, 1.6) + r.randint(9000, 16000)))
            else:
                S.write(rel, text=text)
            created.append(rel)
        if tf == "L":
            self.visuals(outdir)
        return created

    def visuals(self, near, items=None):
        """F=L: charts / images plus a data file."""
        S, r, u = self.S, self.r, self.u
        tc = self.t.get("C")
        if tc == "R":
            fd = ""
        elif near:
            fd = posixpath.join(near, self.folder("figures"))
        else:
            fd = self.folder("figures") if r.random() < 0.6 else ""
        if fd:
            S.mkdir(fd)
        data_ext = u["data_pref"]
        g = self.gen()
        drel = S.uniq(posixpath.join(near, self.name(STEMS["data"], data_ext)) if near else self.name(STEMS["data"], data_ext))
        if data_ext == "csv":
            S.write(drel, text=g.csv(len(items) if items else r.randint(8, 40), ["id", "name", "date", "value", "status"]))
        else:
            S.write(drel, size=r.randint(9000, 60000))
        for k in range(r.randint(*u["n_charts"])):
            kwn = split_words(r.choice(self.kw_en))
            nm = self.name((["chart"] + kwn, "图表" + str(k + 1), ["grafico"] + kwn), "png", native=0.5)
            rel = S.uniq(posixpath.join(fd, nm) if fd else nm)
            S.write(rel, size=r.randint(25000, 380000))

    # -- D: revision of an existing text file
    def mutate(self, text, size, is_csv=False):
        r = self.r
        g = self.gen()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines = lines[:-1]
        n = len(lines)
        if size == "small":
            k, add, dele = r.randint(1, 3), r.choice([0, 0, 1, 2]), r.choice([0, 0, 0, 1])
        else:
            k, add, dele = r.randint(4, 10), r.randint(2, 8), r.randint(0, 4)
        k = min(k, max(1, n - 1))
        start = r.randrange(max(1, n - k - dele))
        if is_csv:
            start = max(1, start)
            ncol = lines[0].count(",") + 1 if lines else 5
        block = []
        for ln in lines[start:start + k]:
            if ln.startswith("#"):
                block.append(ln.split(" ")[0] + " " + g.heading_text())
            elif ln.startswith("|") and ln.count("|") > 3 and "---" not in ln:
                cells = ln.split("|")
                cells[2] = f" {r.randint(5, 900)} "
                block.append("|".join(cells))
            elif is_csv and "," in ln:
                cells = ln.split(",")
                j = r.randrange(1, len(cells)) if len(cells) > 1 else 0
                cells[j] = str(r.randint(1, 5000)) if r.random() < 0.6 else r.choice(self.kw).replace(",", " ")
                block.append(",".join(cells))
            elif ln.startswith(("- ", "* ")):
                block.append(ln[:2] + g.sentence())
            elif ln.strip() == "":
                block.append(ln)
            else:
                block.append(g.para() if size != "small" else g.sentence())
        if is_csv:
            block += [",".join([str(r.randint(100, 999))] + [str(r.randint(1, 5000)) for _ in range(ncol - 1)]) for _ in range(add)]
        else:
            block += [g.bullet() if r.random() < 0.5 else g.sentence() for _ in range(add)]
        lines[start:start + k + dele] = block
        return "\n".join(lines) + "\n"

    def rewrite(self, text, is_csv=False):
        r = self.r
        g = self.gen()
        lines = text.rstrip("\n").split("\n")
        if is_csv:
            ncol = lines[0].count(",") + 1
            rows = [ln for ln in lines[1:] if r.random() < 0.7]
            rows = [",".join(c if r.random() < 0.6 else str(r.randint(1, 5000)) for c in ln.split(",")) for ln in rows]
            rows += [",".join([str(r.randint(100, 999))] + [r.choice(self.kw).replace(",", " ")] * (ncol - 1)) for _ in range(r.randint(1, 6))]
            return "\n".join([lines[0]] + rows) + "\n"
        out = []
        for ln in lines:
            x = r.random()
            if ln.startswith("#") or ln == "":
                out.append(ln)
            elif x < 0.35:
                continue
            elif x < 0.75:
                out.append((ln[:2] + g.sentence()) if ln.startswith(("- ", "* ")) else g.para())
            else:
                out.append(ln)
        out += [g.bullet() for _ in range(r.randint(2, 10))]
        return "\n".join(out) + "\n"

    def backup_name(self, rel):
        stem, ext = posixpath.splitext(rel)
        st = self.u["backup_style"]
        if st == "v":
            return f"{stem}_v{self.r.randint(1, 3)}{ext}"
        if st == "bak":
            return rel + ".bak"
        if st == "copy":
            return f"{stem} copy{ext}"
        if st == "dated":
            return f"{stem}_{self.S.date.strftime('%Y%m%d')}{ext}"
        return f"{stem}_orig{ext}"

    def revise(self, rel, td=None, reread=None):
        S, r, u = self.S, self.r, self.u
        td = td or self.t.get("D")
        if rel not in S.files or td is None:
            return
        f = S.files[rel]
        reread = ("A" in self.dims) if reread is None else reread
        if f["binary"]:
            if td == "L":
                if r.random() < u["backup_p"]:
                    S.copy(rel, self.backup_name(rel), True)
                for _ in range(r.randint(2, 5)):
                    S.write(rel, size=int(f["size"] * r.uniform(0.97, 1.05)))
            elif td == "M":
                for _ in range(r.randint(1, 2)):
                    S.write(rel, size=int(f["size"] * r.uniform(0.9, 1.15)))
            else:
                S.write(rel, size=int(f["size"] * r.uniform(0.6, 1.3)))
            return
        tool = self.tool()
        csvf = f["ext"] == "csv"
        if td == "L":
            if r.random() < u["backup_p"]:
                S.copy(rel, self.backup_name(rel), True)
            for p in range(r.randint(*u["passes"])):
                if reread and p > 0 and r.random() < 0.5:
                    S.read(rel, linger=0.5)
                S.edit(rel, self.mutate(S.files[rel]["text"], "small", csvf), tool)
                S.wait(r.uniform(5, 40))
        elif td == "M":
            if r.random() < 0.15:
                S.copy(rel, self.backup_name(rel), True)
            for _ in range(r.randint(2, 4)):
                S.edit(rel, self.mutate(S.files[rel]["text"], "medium", csvf), tool)
                S.wait(r.uniform(15, 90))
        else:
            new = self.rewrite(S.files[rel]["text"], csvf)
            if r.random() < 0.75:
                S.write(rel, text=new)
            else:
                S.edit(rel, new, tool)

    # -- E: intermediate files and cleanup
    def scratch(self, where=""):
        S, r = self.S, self.r
        if "E" not in self.dims or (r.random() > 0.65 and self.forced != "E"):
            return
        key = r.choice(["scratch", "tmp"])
        nm = self.name(STEMS[key], r.choice(["txt", "md"]))
        if key == "tmp" and not TMP_RE.search(nm):
            nm = "tmp_" + nm
        rel = S.uniq(posixpath.join(where, nm) if where else nm)
        S.write(rel, text=self.gen().document("note", r.randint(4, 18)), tmp=True)
        self.created_tmp.append(rel)

    def cleanup(self, extra=()):
        S, r = self.S, self.r
        te = self.t.get("E")
        if te in (None, "skip", "R"):
            return
        cands = self.live(self.created_tmp + self.temps + list(extra))
        cands = list(dict.fromkeys(cands))
        if not cands:
            return
        cands.sort(key=lambda x: (not S.files[x]["tmp"], x))
        if te == "L":
            dels = [x for x in cands if r.random() < 0.85] or cands[:1]
        else:
            dels = []
            if r.random() < 0.6 or self.forced == "E":
                dels.append(cands[0])
                if len(cands) > 1 and r.random() < 0.15:
                    dels.append(cands[1])
        if dels and r.random() < 0.3 and S.cap("file_browse"):
            S.browse(posixpath.dirname(dels[0]))
        for x in dels:
            S.delete(x)

    # -- C: reorganising existing files
    def category(self, rel):
        e = ext_of(rel)
        low = rel.lower()
        if any(w in low for w in ("invoice", "receipt", "budget", "tax")):
            return "finance"
        return {"jpg": "photos", "png": "images", "pdf": "docs", "docx": "docs", "md": "notes", "txt": "notes",
                "csv": "data", "xlsx": "data", "mp3": "audio", "mp4": "video", "eml": "mail", "ics": "calendar"}.get(e, "misc")

    def conv_name(self, rel):
        stem, ext = posixpath.splitext(posixpath.basename(rel))
        words = split_words(stem)
        if not words:
            return posixpath.basename(rel)
        conv = self.u["naming"] if self.u["naming"] != "dated" or self.r.random() < 0.5 else "snake"
        return apply_conv(words, conv, self.S.date) + ext.lower()

    def reorganise(self, rels=None, nested_start=False):
        S, r = self.S, self.r
        tc = self.t.get("C")
        rels = self.live(rels if rels is not None else self.inputs)
        if tc in (None,):
            return
        if tc == "skip":
            for x in r.sample(rels, min(len(rels), r.randint(0, 2))):
                S.rename(x, self.conv_name(x))
            return
        if tc == "R":
            for x in rels:
                if nested_start and S.fdepth(x) > 0 and r.random() < 0.8:
                    x = S.move(x, "")
                if r.random() < 0.55:
                    S.rename(x, self.conv_name(x))
            return
        cats = {}
        for x in rels:
            cats.setdefault(self.category(x), []).append(x)
        if tc == "M":
            for c, xs in cats.items():
                d = self.folder(c if c in FOLDERS else "misc")
                if len(xs) > 6 and r.random() < 0.35:
                    d += "/" + S.date.strftime("%Y")
                for x in xs:
                    if S.fdepth(x) == 0 and r.random() < 0.85 or S.fdepth(x) > 2:
                        S.mkdir(d)
                        x = S.move(x, d)
                    if r.random() < 0.35:
                        S.rename(x, self.conv_name(x))
            return
        base = self.folder(r.choice(["archive", "projects", self.u["deep_base"]]))
        for c, xs in cats.items():
            for x in xs:
                sub = r.choice([S.date.strftime("%Y") + "/" + S.date.strftime("%m"),
                                S.date.strftime("%Y") + "/" + r.choice(["a", "b", "ref", "in"]),
                                S.date.strftime("%Y") + "/" + r.choice(self.kw_en[:3]).split()[0].lower()])
                d = f"{base}/{self.folder(c if c in FOLDERS else 'misc')}/{sub}"
                if r.random() < 0.92:
                    S.mkdir(d)
                    x = S.move(x, d)
                if r.random() < 0.45:
                    S.rename(x, self.conv_name(x))

    # -- D in organise tasks: an index / changelog kept up to date
    def index_work(self, rel=None, items=()):
        S, r = self.S, self.r
        td = self.t.get("D")
        if td is None:
            return
        g = self.gen()
        items = list(items)
        if rel is None or rel not in S.files:
            rel = S.uniq(self.name(STEMS["index"] if r.random() < 0.6 else STEMS["log"], "md" if r.random() < 0.7 else "txt"))
        tool = self.tool()

        def rowtxt(x):
            return f"- {posixpath.basename(x)}: {g.sentence()}"

        if rel not in S.files:
            if td == "R":
                S.write(rel, text="# " + g.heading_text() + "\n\n" + "\n".join(rowtxt(x) for x in items) + "\n")
                return
            S.write(rel, text="# " + g.heading_text() + "\n\n" + "\n".join(rowtxt(x) for x in items[:2]) + "\n")
            items = items[2:]
        if S.files[rel]["binary"]:
            self.revise(rel, td, reread=False)
            return
        if td == "L":
            if r.random() < self.u["backup_p"]:
                S.copy(rel, self.backup_name(rel), True)
            i = 0
            npass = 0
            while (i < len(items) or npass < 3) and npass < 12:
                chunk = items[i:i + r.randint(1, 3)]
                i += len(chunk)
                txt = S.files[rel]["text"]
                if chunk:
                    txt = txt.rstrip("\n") + "\n" + "\n".join(rowtxt(x) for x in chunk) + "\n"
                else:
                    txt = self.mutate(txt, "small")
                S.edit(rel, txt, tool)
                npass += 1
                S.wait(r.uniform(5, 30))
        elif td == "M":
            parts = max(2, min(4, len(items) // 6 + 1))
            step = max(1, len(items) // parts + 1)
            for k in range(parts):
                chunk = items[k * step:(k + 1) * step]
                txt = S.files[rel]["text"]
                txt = self.mutate(txt, "medium") if len(chunk) < 5 else txt
                txt = txt.rstrip("\n") + "\n" + "\n".join(rowtxt(x) for x in chunk) + "\n"
                S.edit(rel, txt, tool)
                S.wait(r.uniform(20, 90))
        else:
            txt = "# " + g.heading_text() + "\n\n" + "\n".join(rowtxt(x) for x in list(items) + [rel]) + "\n"
            S.write(rel, text=txt)

    # -- F in non-writing tasks
    def f_outputs(self, items):
        S, r = self.S, self.r
        tf = self.t.get("F")
        g = self.gen()
        if tf == "L":
            near = self.place("images") if self.t.get("C") in ("L", "M") else ""
            self.visuals(near, items)
        elif tf == "M":
            rows = ["| " + " | ".join(LANG[self.u["lang"]]["cols"][2]) + " |", "|---|---|---|---|"]
            for x in items[:25]:
                rows.append(f"| {posixpath.basename(x)} | {ext_of(x)} | {S.date.strftime('%Y-%m-%d')} | {g.sentence()[:60]} |")
            text = "# " + g.heading_text() + "\n\n" + g.para() + "\n\n" + "\n".join(rows) + "\n"
            S.write(S.uniq(self.name(r.choice([STEMS["album"], STEMS["catalog"], STEMS["overview"]]), "md")), text=text)
        elif tf == "R" and r.random() < 0.6:
            text = "\n".join(f"{posixpath.basename(x)} - {g.sentence()}" for x in items[:25]) + "\n"
            S.write(S.uniq(self.name(r.choice([STEMS["captions"], STEMS["notes"]]), "txt")), text=text)

    # -- task flows
    def run(self):
        S, r = self.S, self.r
        typ, tid = self.task["type"], self.task["id"]
        self.materialise()
        if S.cap("file_browse") and r.random() < 0.3 and "A" not in self.dims:
            S.browse("")
        if typ in ("understand", "synthesize"):
            self.scratch()
            self.consume()
            if tid == "T-17":
                self.reorganise(nested_start=True)
                return
            out = self.produce()
            if "D" in self.dims and out:
                main = out[0]
                self.revise(main)
            self.cleanup()
        elif typ == "create":
            self.scratch()
            if self.inputs:
                self.consume()
            if tid == "T-20" and "E" in self.dims and r.random() < 0.6:
                nm = self.name(STEMS["draft"], "md")
                rel = S.uniq(nm)
                S.write(rel, text=self.gen().document("list", r.randint(10, 30)))
                self.created_tmp.append(rel)
            self.produce()
            self.cleanup()
        elif typ == "organize":
            self.consume()
            if "F" in self.dims:
                items = self.live(self.inputs)
            rels = self.live(self.inputs)
            if tid == "T-14":
                rels = [x for x in rels if x not in self.targets]
            self.reorganise(rels)
            if "D" in self.dims:
                tgt = self.live(self.targets)
                items = [x for x in S.files if x in set(self.live(self.inputs))]
                if tid == "T-29":
                    items = [x for x in items if x.endswith(".pdf")]
                self.index_work(tgt[0] if tgt else None, items[:30])
            if "F" in self.dims:
                self.f_outputs(self.live(self.inputs))
        elif typ == "iterate":
            tg = self.live(self.targets)
            if "A" in self.dims:
                self.consume()
            else:
                for x in self.live(self.keys)[:3]:
                    S.read(x)
            if tid in ("T-11",):
                tg = r.sample(tg, r.randint(2, len(tg))) if len(tg) > 2 else tg
            for x in tg:
                if x not in S.reads and not S.files[x]["binary"] and r.random() < 0.7:
                    S.read(x)
                self.revise(x)
            if "B" in self.dims:
                self.produce()
            if "C" in self.dims:
                self.reorganise(self.live(tg))
            if "F" in self.dims:
                self.f_outputs(self.live([x for x in self.inputs if S.files.get(x, {}).get("binary")]) or tg)
            self.cleanup()
        elif typ == "maintain":
            rounds = 3 if tid == "T-18" else 1
            upd = [x for x in self.live(self.keys) if "update" in x]
            if "A" in self.dims:
                self.consume()
            for k in range(rounds):
                if upd:
                    u_ = upd[min(k, len(upd) - 1)]
                    if u_ in S.files:
                        S.read(u_)
                tg = self.live(self.targets)
                for x in r.sample(tg, min(len(tg), r.randint(1, 3))):
                    if "A" not in self.dims and r.random() < 0.6:
                        S.read(x)
                    self.revise(x, reread=False)
                if "C" in self.dims and r.random() < 0.8:
                    tc = self.t.get("C")
                    if tc == "L":
                        d = f"kb/{self.folder('kbnew')}/{apply_conv(split_words(r.choice(self.kw_en)), 'snake')}/{S.date.strftime('%Y')}"
                    elif tc == "M":
                        d = "kb" if r.random() < 0.6 else f"kb/{self.folder('kbnew')}"
                    else:
                        d = ""
                    S.mkdir(d)
                    kwn = split_words(r.choice(self.kw_en))
                    nm = self.name((kwn, r.choice(self.task["kw"]["zh"]), kwn), "md")
                    S.write(S.uniq(posixpath.join(d, nm) if d else nm),
                            text=self.gen().document("sect", r.randint(20, 60)))
                    if tc == "L" and r.random() < 0.6:
                        mv = [x for x in self.live(self.targets) if x.startswith("kb/")]
                        if mv:
                            S.move(r.choice(mv), d)
                if "E" in self.dims and k == rounds - 1:
                    done = [x for x in upd if x in S.files]
                    self.cleanup(extra=done)
            if "F" in self.dims:
                self.f_outputs(self.live([x for x in self.inputs if S.files.get(x, {}).get("binary")]))


# --------------------------------------------------------------------------- planning
def plan_user(u, rng):
    tasks_by_type = {}
    for tid, t in T.items():
        tasks_by_type.setdefault(t["type"], []).append(tid)
    sessions = []
    for _ in range(u["n_sessions"]):
        njobs = rng.choice([2, 2, 3, 3, 4]) if rng.random() < u["long_p"] else 1
        jobs = []
        while len(jobs) < njobs:
            typ = wchoice(rng, u["typew"])
            tid = rng.choice(tasks_by_type[typ])
            if tid not in jobs:
                jobs.append(tid)
        logger = wchoice(rng, u["logw"])
        sessions.append(dict(jobs=jobs, logger=logger))
    # make sure every dimension gets enough chances (E is rare in the task list)
    need = {d: (5 if d == "E" else 7) for d in DIMS}
    for d in DIMS:
        have = sum(1 for s in sessions for j in s["jobs"] if d in T[j]["dims"])
        cands = [tid for tid in T if d in T[tid]["dims"]]
        while have < need[d]:
            s = rng.choice(sessions)
            tid = rng.choice(cands)
            if tid in s["jobs"]:
                continue
            if len(s["jobs"]) >= 4 or rng.random() < 0.5:
                s["jobs"][rng.randrange(len(s["jobs"]))] = tid
            else:
                s["jobs"].append(tid)
            have = sum(1 for s2 in sessions for j in s2["jobs"] if d in T[j]["dims"])
    # perturbations
    npert = rng.randint(2, 4)
    idx = list(range(len(sessions)))
    rng.shuffle(idx)
    chosen = []
    for i in idx:
        if len(chosen) >= npert:
            break
        s = sessions[i]
        dims = sorted({d for j in s["jobs"] for d in T[j]["dims"]})
        if s["logger"] != "agent":
            dims = [d for d in dims if d != "A"]
        if not dims:
            continue
        d = rng.choice(dims)
        frm = u["tiers"][d]
        to = neighbour(frm, rng)
        s["shift"] = (d, frm, to)
        chosen.append(i)
    return sessions


def run_user(u, rng, outdir):
    sessions = plan_user(u, rng)
    day = u["start"]
    truth_p = {}
    stats = []
    for si, sp in enumerate(sessions):
        day += dt.timedelta(days=rng.choice([0, 1, 1, 1, 2, 2, 3, 4]))
        while day.weekday() >= 5 and rng.random() < 0.85:
            day += dt.timedelta(days=1)
        sid = f"{u['uid']}_S{si:02d}"
        hour = u["hour0"] + rng.uniform(0, 8 if len(sp["jobs"]) == 1 else 4)
        start = day.replace(hour=0, minute=0, second=0) + dt.timedelta(hours=hour - u["tz"])
        start_ms = start.timestamp() * 1000.0 + rng.random() * 1000
        proj = day.strftime("%Y%m%d") + (f"_{rng.randint(1, 9)}" if rng.random() < 0.3 else "")
        root = f"{u['home']}/{proj}"
        tiers = dict(u["tiers"])
        shift = sp.get("shift")
        if shift:
            tiers[shift[0]] = shift[2]
            truth_p[sid] = {shift[0]: [shift[1], shift[2]]}
        for _ in range(5):
            S = Sess(u, sid, root, start_ms, sp["logger"], rng, day)
            for ji, tid in enumerate(sp["jobs"]):
                if ji:
                    S.wait(rng.uniform(120, 1200))
                Job(S, u, T[tid], tiers, shift, rng, ji).run()
            if len(S.events) >= 4:
                break
            sp["logger"] = "agent"
        write_session(outdir / sid, S, shift)
        if os.environ.get("ALT3_DEBUG"):
            print("  ", sid, sp["logger"], sp["jobs"], shift or "")
        stats.append(len(S.events))
    return truth_p, stats


def write_session(path, S, shift):
    if path.exists():
        shutil.rmtree(path)
    (path / "media" / "blobs").mkdir(parents=True)
    (path / "media" / "diffs").mkdir(parents=True)
    ev = sorted(S.events, key=lambda e: e["timestamp"])
    with open(path / "events.json", "w", encoding="utf-8") as f:
        json.dump(ev, f, ensure_ascii=False, indent=1)
    with open(path / "summary.json", "w") as f:
        json.dump({"session_id": S.sid, "completed": True, "total_events": len(ev)}, f)
    # only media referenced by events
    used = set()
    for e in ev:
        for k in ("media_ref", "media_ref_old", "media_ref_new", "media_ref_diff"):
            if e.get(k):
                used.add(e[k]["hash"])
    entries = {}
    for h in sorted(used):
        kind, b = S.media[h]
        sub = "blobs" if kind == "blob" else "diffs"
        with open(path / "media" / sub / f"{h}.{'blob' if kind == 'blob' else 'diff'}", "wb") as f:
            f.write(b)
        entries[h] = {"type": kind, "size_bytes": len(b)}
    with open(path / "media" / "manifest.json", "w") as f:
        json.dump({"version": 1, "entries": entries}, f)
    if shift:
        with open(path / "perturbation.json", "w") as f:
            json.dump({"shifted_dims": {shift[0]: {"original": shift[1], "perturbed": shift[2]}}}, f)


def generate(out: Path, *, seed: int = DEFAULT_SEED) -> Path:
    """Write the users folder (truth.json and one folder per user) into `out`, replacing it."""
    return _generate(Path(out), seed, None)


def _generate(out: Path, seed: int, echo: Callable[[str], object] | None) -> Path:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    master = random.Random(seed)
    users = make_users(master)
    truth = {}
    total = 0
    for u in users:
        rng = random.Random(f"{seed}:{u['uid']}")
        udir = out / u["uid"]
        udir.mkdir()
        tp, stats = run_user(u, rng, udir)
        truth[u["uid"]] = {"tiers": u["tiers"], "perturbed": tp}
        total += sum(stats)
        if echo:
            echo(f"{u['uid']} lang={u['lang']} sessions={len(stats)} events={sum(stats)} "
                 f"min/max={min(stats)}/{max(stats)} perturbed={len(tp)}")
    with open(out / "truth.json", "w", encoding="utf-8") as f:
        json.dump(truth, f, indent=1)
    if echo:
        echo(f"total events {total}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", required=True, help="the users folder to write (replaced if it exists)")
    a = ap.parse_args(argv)
    _generate(Path(a.out), a.seed, print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
