"""Random policies for the analysis benchmarks (analysis-corpus.sh, analysis-families.sh): one
generator of rules of every kind, its vocabulary and weights given by the caller. The same seed
and settings give the same files on every run (BENCHMARKS.md compares runs of them)."""
import random


class RandomPolicies:
    """Rules of every kind over `sections`. `sections_by`: (threshold, form) pairs tried in
    order against one random number, a form being "name", "pair", "bucket", "sorted", "index";
    past the last threshold, "all". `positions`: (threshold, key) pairs, key "first", "last" or
    "index". `first`: the largest first/last/reserve count. `indices`: a function giving the
    indices an `index` key chooses from. `section_chance`, `tag_chance`: how often a row selector
    has a `section` or `tag` key. `key_always`: a row selector always has a key (else it may be
    `all`). `reserve_sections`: a reserve names a section. `max_bound`: the largest `max`."""

    def __init__(self, seed, sections, kinds, tags, ids, sections_by, positions, first, indices,
                 section_chance=0.3, tag_chance=0.1, key_always=False, reserve_sections=False, max_bound=5):
        random.seed(seed)
        self.sections, self.kinds, self.tags, self.ids = sections, kinds, tags, ids
        self.sections_by, self.positions, self.first, self.indices = sections_by, positions, first, indices
        self.section_chance, self.tag_chance = section_chance, tag_chance
        self.key_always, self.reserve_sections, self.max_bound = key_always, reserve_sections, max_bound

    def section_selector(self):
        r = random.random()
        for threshold, form in self.sections_by:
            if r < threshold:
                if form == "name": return random.choice(self.sections)
                if form == "pair": return "[" + ", ".join(random.sample(self.sections, 2)) + "]"
                if form == "bucket": return "{ kind: bucket }"
                if form == "sorted": return "{ tag: sorted }"
                return str(random.choice([0, 1, -1]))
        return "all"

    def row_selector(self):
        parts = []
        r = random.random()
        for threshold, key in self.positions:
            if r < threshold:
                value = random.choice(self.indices()) if key == "index" else random.randint(1, self.first)
                parts.append(f"{key}: {value}")
                break
        if random.random() < 0.4: parts.append(f"kind: {random.choice(self.kinds)}")
        if random.random() < 0.3: parts.append(f"id: {random.choice(self.ids)}")
        if random.random() < self.section_chance: parts.append(f"section: {self.section_selector()}")
        if random.random() < self.tag_chance: parts.append(f"tag: {random.choice(self.tags)}")
        if random.random() < 0.1: parts.append(f"not: {{ kind: {random.choice(self.kinds)} }}")
        if not parts:
            if not self.key_always: return "all"
            parts.append(f"kind: {random.choice(self.kinds)}")
        return "{ " + ", ".join(parts) + " }"

    def rule(self):
        k = random.choice(["lock", "pin", "pin", "keep-in-section", "accept", "capacity", "reserve", "keep-order"])
        if k in ("lock", "pin", "keep-in-section"): return f"{k}: {self.row_selector()}"
        if k == "accept": return f"accept: {{ section: {self.section_selector()}, from: {self.section_selector()} }}"
        if k == "capacity":
            b = random.choice([f"max: {random.randint(0, self.max_bound)}", f"min: {random.randint(0, 2)}", "max: { attribute: wip }"])
            extra = ", rows: { kind: card }" if random.random() < 0.3 else ""
            return f"capacity: {{ section: {self.section_selector()}, {b}{extra} }}"
        if k == "reserve":
            edge = f"{random.choice(['first', 'last'])}: {random.randint(1, self.first)}"
            return f"reserve: {{ {edge}, section: {random.choice(self.sections)} }}" if self.reserve_sections else f"reserve: {{ {edge} }}"
        return f"keep-order: {self.section_selector()}"


def write(path, name, rules):
    """A policy file of `rules` (each a rule's text, without the list dash)."""
    open(path, "w").write(f"reorder-policy: 1\nname: {name}\nrules:\n" + "".join(f"  - {r}\n" for r in rules))
