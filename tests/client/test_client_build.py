"""The client's build (client/build.mjs) run into a scratch folder: every name but the page's is hashed and the
page names them, each file has brotli and gzip copies beside it holding the same bytes, and each language's
strings are a chunk of their own (the bundle's entry holds none of them)."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path

import pytest
from browserkit import node_binary

CLIENT = Path(__file__).resolve().parents[2] / "client"
HASHED = re.compile(r"[a-z]+-[A-Z0-9]{8}\.(js|css)(\.map)?")
# node's zlib decodes brotli (no Python package for it is needed): name → whether the copy decodes to the file
SAME_AS_BROTLI = """
const { readFileSync, readdirSync } = require('node:fs');
const { brotliDecompressSync } = require('node:zlib');
const dir = process.argv[1], out = {};
for (const f of readdirSync(dir).filter((f) => f.endsWith('.br'))) {
  out[f] = brotliDecompressSync(readFileSync(`${dir}/${f}`)).equals(readFileSync(`${dir}/${f.slice(0, -3)}`));
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    node = node_binary()
    assert node is not None, "the client needs Node.js to build"
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([node, "build.mjs", str(out)], cwd=CLIENT, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr
    return out


def test_every_name_but_the_page_is_hashed_and_the_page_names_them(built: Path) -> None:
    files = {p.name for p in built.iterdir() if p.suffix not in (".br", ".gz")}
    assert "index.html" in files
    # the page and the push service worker keep their names (a worker's URL is its identity and scope), and
    # both are served to be revalidated
    assert {f for f in files if f not in ("index.html", "sw.js") and not HASHED.fullmatch(f)} == set()
    page = (built / "index.html").read_text()
    named = set(re.findall(r'(?:src|href)="([^":]+)"', page))
    entry = re.search(r'<script type="module" src="(app-[A-Z0-9]{8}\.js)">', page)
    style = re.search(r'<link rel="stylesheet" href="(app-[A-Z0-9]{8}\.css)">', page)
    assert entry and style, page
    assert named <= files, named - files
    # what the entry imports before it runs is preloaded with it, not found one round trip later
    code = (built / entry[1]).read_text()
    static_imports = set(re.findall(r'(?:^|;)import"\./([^"]+)"|from"\./([^"]+)"', code)) - {("", "")}
    static_imports = {a or b for a, b in static_imports}
    assert static_imports, "the entry imports esbuild's shared chunk"
    assert static_imports <= named, (static_imports, named)


def test_each_file_has_brotli_and_gzip_copies_of_the_same_bytes(built: Path) -> None:
    shipped = [p for p in built.iterdir() if p.suffix in (".js", ".css", ".html")]
    for p in shipped:
        assert (built / (p.name + ".gz")).is_file(), p.name
        assert gzip.decompress((built / (p.name + ".gz")).read_bytes()) == p.read_bytes(), p.name
    node = node_binary()
    assert node is not None
    run = subprocess.run([node, "-e", SAME_AS_BROTLI, str(built)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    same = json.loads(run.stdout)
    assert {p.name + ".br" for p in shipped} <= set(same)
    assert all(same.values()), same
    # at the best levels: brotli beats gzip on the bundle
    entry = next(p for p in shipped if p.name.startswith("app-") and p.suffix == ".js")
    br, gz = (built / (entry.name + ".br")).stat().st_size, (built / (entry.name + ".gz")).stat().st_size
    assert br < gz < entry.stat().st_size / 3, (br, gz, entry.stat().st_size)


def test_each_language_is_a_chunk_of_its_own(built: Path) -> None:
    entry = next(p for p in built.iterdir() if re.fullmatch(r"app-[A-Z0-9]{8}\.js", p.name)).read_text()
    chunks = {lang: [p for p in built.iterdir() if re.fullmatch(rf"{lang}-[A-Z0-9]{{8}}\.js", p.name)]
              for lang in ("en", "fr", "nl", "de", "he")}
    assert all(len(c) == 1 for c in chunks.values()), chunks
    words = {"en": "Open tables", "fr": "Tables ouvertes", "nl": "Open tafels", "de": "Offene Tische",
             "he": "שולחנות פתוחים"}
    for lang, word in words.items():
        assert word not in entry, lang
        assert word in chunks[lang][0].read_text(encoding="utf-8"), lang
        assert f'import("./{chunks[lang][0].name}")' in entry
