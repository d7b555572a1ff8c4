"""A deterministic, realistic diary corpus shared by diary, jrnl and pass.

The generator is sequential with a fixed seed, so the corpus of N entries is the first N
entries of any larger corpus: every size and every tool sees the same text.
"""
import json
import random
import uuid
from datetime import datetime, timedelta, timezone

SEED = 20240222
# Never produced by the word lists below; planted in about 0.2% of the entries.
RARE_WORD = "quetzalcoatlus"
# In no entry (the corpus is made of the word lists below and RARE_WORD): `search` must open
# every entry and report nothing, the case the search floor of issue 23 is about.
ABSENT_WORD = "zyzzogeton"
TAG_FOR_LISTING = "travel"

ENGLISH = """the a of to and in that it was for on with as at by from this we had morning
evening coffee rain walked office meeting train friend mother father sister brother dinner
lunch book read wrote garden city river park bridge quiet tired happy worried remembered
tomorrow yesterday week project deadline code review email phone call letter music song
window light cold warm snow summer winter spring autumn weekend holiday plan hope thought
idea small long short slow fast new old good bad early late again still just really
finally maybe perhaps almost always never often sometimes kitchen bread tea soup market
bus station airport hotel street shop library school class teacher student lesson exam
doctor run swim bike mountain sea beach forest cat dog bird tree flower cloud sun moon""".split()

KOREAN = """오늘 아침 저녁 커피 비가 왔다 산책 회사 회의 기차 친구 어머니 아버지 동생 저녁밥
점심 책을 읽었다 일기 정원 도시 강변 공원 다리 조용한 피곤한 행복한 걱정 기억 내일 어제
이번 주 프로젝트 마감 코드 리뷰 전화 편지 음악 노래 창문 햇살 추운 따뜻한 눈이 여름 겨울
봄 가을 주말 휴가 계획 희망 생각 작은 오래된 새로운 좋은 다시 아직 정말 드디어 아마
부엌 빵 차 국 시장 버스 역 공항 호텔 거리 가게 도서관 학교 수업 선생님 학생 시험 병원
달리기 수영 자전거 산 바다 해변 숲 고양이 강아지 새 나무 꽃 구름 해 달""".split()

TAGS = ["work", "family", "travel", "health", "reading", "ideas", "food", "music",
        "독서", "여행", "가족", "운동"]


def _sentence(rng, words, lo, hi):
    n = rng.randint(lo, hi)
    s = " ".join(rng.choice(words) for _ in range(n))
    return s[0].upper() + s[1:] + "."


def _entry(rng, i):
    korean = rng.random() < 0.3
    words = KOREAN if korean else ENGLISH
    title = _sentence(rng, words, 3, 7)[:-1]
    target = rng.randint(1024, 2048)  # body size in UTF-8 bytes
    paragraphs, para, size = [], [], 0
    while size < target:
        # Mixed-language diaries are common: one sentence in ten is in the other language.
        other = KOREAN if not korean else ENGLISH
        s = _sentence(rng, other if rng.random() < 0.1 else words, 6, 16)
        para.append(s)
        size += len(s.encode()) + 1
        if len(para) >= rng.randint(3, 6):
            paragraphs.append(" ".join(para))
            para = []
            size += 1
    if para:
        paragraphs.append(" ".join(para))
    if i == 7 or rng.random() < 0.002:
        paragraphs[-1] += f" Saw a {RARE_WORD} model at the museum."
    body = "\n\n".join(paragraphs)
    start = datetime(2014, 1, 1, tzinfo=timezone.utc)
    date = start + timedelta(minutes=rng.randrange(12 * 365 * 24 * 60))
    tags = sorted(set(rng.sample(TAGS, rng.choice([0, 1, 1, 2, 2, 3]))))
    return {
        "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "text": f"{title}\n{body}",
        "date": int(date.timestamp() * 1000),
        "starred": rng.random() < 0.05,
        "tags": tags,
    }


def generate(n):
    return list(iterate(n))


def iterate(n):
    """The corpus one entry at a time (the first k are `generate(k)`): a million entries are 1.7 GB of
    text, too much to hold as a list for the flatness rows, which only need the file."""
    rng = random.Random(SEED)
    for i in range(n):
        yield _entry(rng, i)


def write_jsonl(entries, path):
    with open(path, "w", encoding="utf-8") as f:
        for e in entries:
            f.write(json.dumps(e, ensure_ascii=False) + "\n")


def stats(entries):
    texts = [len(e["text"].encode()) for e in entries]
    return {
        "entries": len(entries),
        "text_bytes": sum(texts),
        "mean_bytes": sum(texts) // max(len(texts), 1),
        "rare_hits": sum(RARE_WORD in e["text"] for e in entries),
        "tag_hits": sum(TAG_FOR_LISTING in e["tags"] for e in entries),
        "starred": sum(e["starred"] for e in entries),
        "korean": sum(any("\uac00" <= c <= "\ud7a3" for c in e["text"][:40]) for e in entries),
    }
