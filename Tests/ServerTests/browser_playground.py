#!/usr/bin/env python3
"""Drives the playground and the SortableJS example page in headless Chromium (Selenium).

Run by ServerTests.playgroundInABrowser against a `reorder-policy-server --playground` it
started. Every decision the page shows is compared with `reorder-policy explain --format json`
for the same policy text, table and move. Prints one line per check; exits 1 on the first
failure, 3 when Chromium, chromedriver or Selenium is missing (the Swift test fails on that
under CI=true).

usage: browser_playground.py BASE_URL CLI POLICIES_DIR SCREENSHOT.png
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:
    print(f"missing: selenium ({error})")
    sys.exit(3)

BASE, CLI, POLICIES, SCREENSHOT = sys.argv[1:5]
# Selenium Manager must neither look for drivers online nor send usage statistics: the driver
# and the browser are Debian's, named below.
os.environ["SE_OFFLINE"] = "true"
os.environ["SE_AVOID_STATS"] = "true"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    print(f"missing: chromium={CHROMIUM} chromedriver={DRIVER}")
    sys.exit(3)

BOARD = os.path.join(POLICIES, "board.yaml")
# policies/tables/sprint.yaml, the example pages' table.
SPRINT_ROWS = [["Login page", "Payments", "Search"], ["Signup", "Profile", "Settings"], ["Onboarding"], ["Logo", "Landing page"]]
SPRINT = os.path.join(POLICIES, "tables", "sprint.yaml")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message)


def explain(policy_file, args):
    out = subprocess.run([CLI, "explain", "--policy", policy_file, "--table", SPRINT, "--format", "json"] + args,
                         capture_output=True, text=True)
    return json.loads(out.stdout)["results"][0]


def lint(policy_file):
    out = subprocess.run([CLI, "lint", "--format", "json", policy_file], capture_output=True, text=True)
    return json.loads(out.stdout)["diagnostics"]


options = webdriver.ChromeOptions()
options.binary_location = CHROMIUM
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1440,1000",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-default-apps", "--disable-sync", "--metrics-recording-only", "--user-data-dir=" + tempfile.mkdtemp()):
    options.add_argument(flag)
options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
driver = webdriver.Chrome(service=Service(DRIVER), options=options)
driver.set_page_load_timeout(30)
wait = WebDriverWait(driver, 10, poll_frequency=0.05)
requests_seen = []


def network():
    """Requests the page sent since the last call (from Chromium's DevTools log)."""
    sent = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            sent.append(message["params"]["request"]["url"])
    requests_seen.extend(sent)
    return sent


def js(script, *args):
    return driver.execute_script(script, *args)


def rows_text():
    return js("return Array.from(document.querySelectorAll('.section')).map(s => "
              "Array.from(s.querySelectorAll('.row')).map(r => r.dataset.id))")


def decision_shown():
    wait.until(lambda d: js("return !!document.getElementById('decision-word')"))
    word = js("return document.getElementById('decision-word').textContent")
    target = js("var t = document.getElementById('decision-target'); return t ? t.dataset.target : null")
    violations = js("return Array.from(document.querySelectorAll('#violations li')).map(li => "
                    "[li.dataset.rule, li.querySelector('.message').textContent, li.querySelector('.reason').textContent, li.dataset.line])")
    hits = js("return Array.from(document.querySelectorAll('#gutter div.hit')).map(d => Number(d.dataset.line))")
    return word, target, violations, hits


def eventually(condition, seconds=3):
    """Whether `condition()` becomes true within `seconds` (a check then fails with its own
    message, not with a timeout)."""
    try:
        WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition())
        return True
    except TimeoutException:
        return False


def decision_cleared():
    return js("return !document.getElementById('decision-word') && !document.getElementById('decision-target')"
              " && !document.querySelector('#violations li') && !document.querySelector('#gutter div.hit, #layer div.hit')")


def reset_table():
    driver.find_element(By.ID, "reset-table").click()
    wait.until(lambda d: rows_text()[1][0] == "Signup")
    check(eventually(decision_cleared), "Reset table clears the decision, its target, violations and highlighted lines")


def announced():
    return js("return document.getElementById('live').dataset.last") or ""


def b64url(text):
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def severe_console_errors():
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def compare(expected, label, section=False):
    word, target, violations, hits = decision_shown()
    check(word == expected["decision"], f"{label}: the page says {word}, explain says {expected['decision']}")
    want_target = str(expected["target"]) if section else ".".join(map(str, expected["target"]))
    check(target == want_target, f"{label}: target {target} = explain's {want_target}")
    want = [[v["rule"], v.get("message") or "", v["reason"], str(v["location"]["line"])] for v in expected["violations"]]
    check(violations == want, f"{label}: violations {violations} = explain's")
    lines = sorted({v["location"]["line"] for v in expected["violations"]})
    check(sorted(hits) == lines, f"{label}: highlighted rule lines {hits} = {lines}")


def pointer_drag(source, slot_css):
    """Real mouse input: press on `source`, move until the drag has its destinations, move
    onto the slot, release."""
    ActionChains(driver).move_to_element(source).click_and_hold().move_by_offset(8, 8).perform()
    wait.until(lambda d: js("return document.querySelectorAll('.slot.ok, .slot.no, .sslot.ok, .sslot.no').length > 0"))
    slot = driver.find_element(By.CSS_SELECTOR, slot_css)
    ActionChains(driver).move_to_element(slot).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover, .sslot.hover')"))
    ActionChains(driver).release().perform()


def row(s, r):
    return driver.find_element(By.CSS_SELECTOR, f'.row[data-section="{s}"][data-row="{r}"]')


def slot_refused(s, gap):
    return js(f"return document.querySelector('.slot[data-slot-section=\"{s}\"][data-gap=\"{gap}\"]').classList.contains('no')")


started = time.monotonic()
try:
    def ready():
        wait.until(lambda d: js("return document.body.dataset.ready === 'true'"))

    def editor_text():
        return js("return document.getElementById('policy').value")

    # The examples name their files relative to the --policies folder: no path of the server's.
    driver.get(BASE + "/playground")
    ready()
    examples = js("return fetch('/v1/playground/examples').then(function (r) { return r.json(); })")
    names = [v for p in examples["policies"] for v in (p["name"], p["file"])] + [t["file"] for t in examples["tables"]]
    check(not any(n.startswith("/") or n.startswith(POLICIES.rstrip("/") + "/") for n in names),
          f"/v1/playground/examples names no server path: {names}")
    menu = js("return Array.from(document.querySelectorAll('#table-example option')).map(o => [o.value, o.textContent])")
    check({"name": "board", "file": "board.yaml"}.items() <= next(p for p in examples["policies"] if p["name"] == "board").items()
          and ["tables/sprint.yaml", "tables/sprint.yaml"] in menu,
          f"the names are relative to the --policies folder (board.yaml, tables/sprint.yaml): {menu}")

    # A broken link: a message on the page, the default example, no script error.
    severe_console_errors()
    driver.get("about:blank")
    driver.get(BASE + "/playground#policy=%%%&table=@@")
    ready()
    notice = js("var n = document.getElementById('notice'); return n && !n.hidden && n.offsetHeight > 0 ? n.textContent : ''")
    check("link" in notice, f"a broken link says so on the page: {notice!r}")
    default = examples["policies"][0]
    check(editor_text() == default["text"] and js("return document.getElementById('policy-example').value") == default["name"],
          f"a broken link loads the default example ({default['name']})")
    errors = severe_console_errors()
    check(errors == [], f"a broken link throws no script error: {errors}")

    # A shared link: its policy and table, the Table menu says where the table came from, and
    # picking another example drops the link's fragment (a reload does not bring it back).
    link_policy = open(BOARD).read() + "# shared\n"
    link_table = {"sections": [{"id": "Left", "rows": ["a", "b"]}, {"id": "Right", "rows": ["c"]}]}
    driver.get("about:blank")
    driver.get(BASE + "/playground#policy=" + b64url(link_policy) + "&table=" + b64url(json.dumps(link_table)))
    ready()
    check(editor_text() == link_policy and rows_text() == [["a", "b"], ["c"]], "a shared link restores its policy and table")
    shown = js("var s = document.getElementById('table-example'); return s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].textContent")
    check("link" in shown, f"the Table menu says the table came from the link: {shown!r}")
    check(js("var n = document.getElementById('notice'); return !n || n.hidden"), "a good link shows no message")
    js("arguments[0].focus()", row(0, 0))
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover')") and "Picked up" in announced())
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ENTER).perform()
    decision_shown()
    moved = rows_text()
    driver.find_element(By.ID, "reset-table").click()
    check(moved != [["a", "b"], ["c"]] and eventually(lambda: rows_text() == [["a", "b"], ["c"]]) and decision_cleared(),
          f"Reset table draws the link's table again (it was {moved})")
    Select(driver.find_element(By.ID, "policy-example")).select_by_value("board")
    wait.until(lambda d: rows_text() and rows_text()[1][:1] == ["Signup"])
    check(eventually(lambda: js("return location.hash") == ""), "picking another example clears the link's fragment")
    driver.refresh()
    ready()
    check(editor_text() != link_policy and rows_text() != [["a", "b"], ["c"]], "a reload then does not bring the link's case back")

    driver.get(BASE + "/playground")
    ready()
    Select(driver.find_element(By.ID, "policy-example")).select_by_value("board")
    wait.until(lambda d: rows_text() and rows_text()[1][:1] == ["Signup"])
    check(rows_text() == [["Login page", "Payments", "Search"], ["Signup", "Profile", "Settings"], ["Onboarding"], ["Logo", "Landing page"]],
          "loading the board example draws tables/sprint.yaml")
    wait.until(lambda d: js("return document.querySelector('#diagnostics .clean') !== null"))
    check(True, "board.yaml lints clean in the page")

    # Allowed: Settings (1.2) to the top of Review.
    pointer_drag(row(1, 2), '.slot[data-slot-section="2"][data-gap="0"]')
    compare(explain(BOARD, ["--from", "1.2", "--to", "2.0"]), "allowed drag")
    check(rows_text()[2] == ["Settings", "Onboarding"], "the allowed row sits at 2.0")
    reset_table()

    # Escape cancels a pointer drag: the row stays, nothing is decided, the release sends nothing.
    ActionChains(driver).move_to_element(row(1, 2)).click_and_hold().move_by_offset(8, 8).perform()
    wait.until(lambda d: js("return document.querySelectorAll('.slot.ok').length > 0"))
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, '.slot[data-slot-section="2"][data-gap="0"]')).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover')"))
    network()
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    check(eventually(lambda: js("return !document.querySelector('.dragging, .lifted')")), "Escape ends a pointer drag")
    ActionChains(driver).move_by_offset(6, 6).perform()
    check(not js("return !!document.querySelector('.dragging, .lifted')"), "moving the pointer after Escape starts no new drag")
    ActionChains(driver).release().perform()
    time.sleep(0.5)
    sent = [u for u in network() if "/v1/" in u]
    check(sent == [] and rows_text() == SPRINT_ROWS and decision_cleared(),
          f"the release after Escape drops nothing: requests {sent}, rows {rows_text()}")

    # Retargeted: Signup (1.0) into Archive; the slots of Archive are shown refused while dragging.
    ActionChains(driver).move_to_element(row(1, 0)).click_and_hold().move_by_offset(8, 8).perform()
    wait.until(lambda d: js("return document.querySelectorAll('.slot.ok').length > 0"))
    check(slot_refused(3, 0) and slot_refused(3, 2) and not slot_refused(2, 1),
          "while dragging, Archive's slots are refused and Review's are allowed")
    slot = driver.find_element(By.CSS_SELECTOR, '.slot[data-slot-section="3"][data-gap="0"]')
    ActionChains(driver).move_to_element(slot).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover.no')"))
    ActionChains(driver).release().perform()
    expected = explain(BOARD, ["--from", "1.0", "--to", "3.0"])
    compare(expected, "retargeted drag")
    check(rows_text()[2] == ["Onboarding", "Signup"] and "Signup" not in rows_text()[3],
          "the row snapped to the retargeted slot 2.1")
    time.sleep(1.0)  # the snap animation ends
    driver.save_screenshot(SCREENSHOT)
    check(os.path.getsize(SCREENSHOT) > 10_000, f"screenshot saved to {SCREENSHOT}")
    reset_table()

    # Denied: an archived card cannot be picked up.
    pointer_drag(row(3, 0), '.slot[data-slot-section="3"][data-gap="2"]')
    compare(explain(BOARD, ["--from", "3.0", "--to", "3.1"]), "denied drag")
    reset_table()

    # A section move: Review's title dragged before Backlog.
    head = driver.find_element(By.CSS_SELECTOR, '[data-section-head="2"]')
    pointer_drag(head, '.sslot[data-section-gap="0"]')
    compare(explain(BOARD, ["--section-from", "2", "--section-to", "0"]), "section drag", section=True)
    check([r[0] if r else None for r in rows_text()] == ["Login page", "Onboarding", "Signup", "Logo"], "Review moved to index 1")
    reset_table()

    # Keyboard only: Signup picked up with Space, three arrows down, dropped with Enter.
    focus = row(1, 0)
    js("arguments[0].focus()", focus)
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover')"))
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_DOWN).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover[data-slot-section=\"2\"][data-gap=\"0\"]')"))
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    compare(explain(BOARD, ["--from", "1.0", "--to", "2.0"]), "keyboard move")
    wait.until(lambda d: "allowed" in (js("return document.getElementById('live').dataset.last") or ""))
    check(js("return document.getElementById('live').getAttribute('aria-live')") == "assertive",
          "the live region announces: " + js("return document.getElementById('live').dataset.last"))
    reset_table()

    # The keyboard cursor: left and right keep the position (clamped to the section's), up and
    # down step through every position once; the hovered slot is the announced one.
    js("arguments[0].focus()", row(1, 0))
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover')") and "Picked up" in announced())
    R, L, D, U = Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_DOWN, Keys.ARROW_UP
    names = ["Backlog", "Doing", "Review", "Archive"]
    steps = [(R, 2, 1), (D, 2, 2), (L, 1, 2), (D, 1, 3), (D, 2, 1), (R, 3, 1), (D, 3, 2), (D, 3, 3), (L, 2, 2),
             (L, 1, 2), (U, 1, 1), (U, 0, 4), (R, 1, 3), (U, 1, 2)]
    got, want = [], []
    for key, u, position in steps:
        ActionChains(driver).send_keys(key).perform()
        said = announced()
        hovered = js("return Array.from(document.querySelectorAll('.slot.hover')).map(e => e.dataset.to)")
        got.append([said.split(":")[0], hovered])
        want.append([f"{names[u]}, position {position}", [f"{u}.{position - 1}"]])
    check(got == want, f"the arrow keys move between the slots predictably: {got}")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    check(eventually(lambda: "cancelled" in announced()) and rows_text() == SPRINT_ROWS, "Escape puts the row back")

    # Rejected: the policy edited (real keys) to retarget: cancel.
    editor = driver.find_element(By.ID, "policy")
    editor.click()
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).send_keys("retarget: cancel\n").perform()
    text = js("return document.getElementById('policy').value")
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(text)
        cancel_file = f.name
    wait.until(lambda d: js("return document.querySelector('#diagnostics .clean') !== null"))
    pointer_drag(row(1, 0), '.slot[data-slot-section="3"][data-gap="0"]')
    compare(explain(cancel_file, ["--from", "1.0", "--to", "3.0"]), "rejected drag (retarget: cancel)")
    check(rows_text()[1][0] == "Signup", "the rejected row stayed at 1.0")

    # An invalid policy: the diagnostic shows at its line, as lint gives it.
    ActionChains(driver).move_to_element(editor).click().key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL) \
        .send_keys("rules-extra: 1\n").perform()
    text = js("return document.getElementById('policy').value")
    with open(cancel_file, "w") as f:
        f.write(text)
    want = lint(cancel_file)
    check(len(want) == 1 and want[0]["code"] == "unknown-key", "lint finds the unknown key")
    line = want[0]["line"]
    wait.until(lambda d: js(f"return !!document.querySelector('#gutter div.error[data-line=\"{line}\"]')"))
    shown = js("return Array.from(document.querySelectorAll('#diagnostics li')).map(li => [Number(li.dataset.line), li.textContent])")
    check(len(shown) == 1 and shown[0][0] == line and want[0]["message"] in shown[0][1],
          f"the diagnostic is at line {line} with lint's message: {shown}")
    os.unlink(cancel_file)

    # A lint in flight when newer text arrives is aborted (issue #60, item 8), and only the
    # newest text's diagnostics show: a 300-lock policy (seconds of analysis in this debug
    # server), then, once its lint has been sent, the text with one unknown key again.
    js("window.lintAborts = 0; var send = window.fetch; window.fetch = function (url, options) {"
       " if (options && options.signal) options.signal.addEventListener('abort', function () { window.lintAborts++; });"
       " return send.apply(this, arguments); };")
    def set_text(value):
        js("var e = document.getElementById('policy'); e.value = arguments[0]; e.dispatchEvent(new Event('input'));", value)
    slow = "reorder-policy: 1\nname: slow\nrules:\n" + "".join(f"  - lock: {{ index: {1000 + k} }}\n" for k in range(300))
    network()
    set_text(slow)
    check(eventually(lambda: any(u.endswith("/v1/playground") for u in network())), "the slow policy's lint was sent")
    set_text(text)
    check(eventually(lambda: js("return window.lintAborts") >= 1), "the slow lint was aborted when newer text arrived")
    wait.until(lambda d: js(f"return !!document.querySelector('#gutter div.error[data-line=\"{line}\"]')"))
    time.sleep(1)
    shown = js("return Array.from(document.querySelectorAll('#diagnostics li')).map(li => li.textContent)")
    check(len(shown) == 1 and want[0]["message"] in shown[0] and "lock-displaced" not in " ".join(shown),
          f"only the newest text's diagnostics show: {shown}")
    check(not js("return /abort/i.test(document.getElementById('decision-body').textContent)"),
          "an aborted lint shows no error")

    # The editor repaints only what changed (issue #60, item 8: every line was, 6.1 s a key at
    # 18,053 lines): keys at each end of an 18,000-line text, each timed around its input event
    # (the repaint; a hang guard far above the figure), then the layer and gutter compared
    # line by line.
    def painted_as_text():
        return js("""var lines = document.getElementById('policy').value.split('\\n');
          var layer = document.getElementById('layer').children, gutter = document.getElementById('gutter').children;
          if (layer.length !== lines.length || gutter.length !== lines.length) return 'counts ' + layer.length + ' ' + gutter.length + ' ' + lines.length;
          for (var k = 0; k < lines.length; k++) {
            if (layer[k].textContent !== lines[k] + ' ' || layer[k].dataset.line !== String(k + 1) || gutter[k].textContent !== String(k + 1)) return 'line ' + (k + 1);
          }
          return 'ok';""")
    set_text(text + "".join(f"# comment {k}\n" for k in range(18000)))
    js("document.getElementById('layer').scrollHeight")
    took = js("""var e = document.getElementById('policy'), took = [];
      [function (v) { return 'x' + v; }, function (v) { return v.slice(1); }, function (v) { return v + 'y'; }].forEach(function (edit) {
        e.value = edit(e.value);
        e.scrollHeight;  // the textarea's own layout of the new value, before the timing
        var t0 = performance.now(); e.dispatchEvent(new Event('input')); took.push(performance.now() - t0);
      });
      return took;""")
    check(max(took) < 250, f"one key at 18,000 lines repaints in {[round(t) for t in took]} ms (hang guard 250 ms)")
    check(painted_as_text() == "ok", f"at 18,000 lines the layer and gutter match the text: {painted_as_text()}")
    set_text(text)
    check(painted_as_text() == "ok", f"back to the short text, the layer and gutter match it: {painted_as_text()}")
    wait.until(lambda d: js(f"return !!document.querySelector('#gutter div.error[data-line=\"{line}\"]')"))
    check(js(f"return document.querySelectorAll('#layer div.error').length === 1 && document.getElementById('layer').children[{line - 1}].className === 'error'"),
          f"the error's mark is on line {line} of the layer, and only there")

    # Picking up a row or a section while the policy has errors says so and decides nothing.
    decisions = ("allowed", "retargeted", "rejected", "denied", "invalid")
    for label, css in (("a row", '.row[data-section="1"][data-row="0"]'), ("a section", '[data-section-head="2"]')):
        js("document.getElementById('live').dataset.last = ''; arguments[0].focus()", driver.find_element(By.CSS_SELECTOR, css))
        ActionChains(driver).send_keys(Keys.SPACE).perform()
        check(eventually(lambda: announced() != ""), f"picking up {label} with a broken policy is answered")
        said, word = announced(), js("var w = document.getElementById('decision-word'); return w ? w.textContent : null")
        check("policy has errors" in said and "does not let it move" not in said and word not in decisions
              and eventually(lambda: js("return !document.querySelector('.dragging, .dragging-section')")),
              f"picking up {label} with a broken policy says the policy has errors: {said!r}, decision shown: {word!r}")

    # Tab in the editor indents; Escape then Tab leaves it (the usual way out for keyboard users).
    editor.click()
    before = editor_text()
    ActionChains(driver).send_keys(Keys.TAB).perform()
    check(len(editor_text()) == len(before) + 2 and js("return document.activeElement.id") == "policy", "Tab in the editor inserts two spaces")
    before = editor_text()
    ActionChains(driver).send_keys(Keys.ESCAPE).send_keys(Keys.TAB).perform()
    check(editor_text() == before and js("return document.activeElement.matches('#board [tabindex]')"),
          "Escape then Tab leaves the editor for the table: " + js("return document.activeElement.outerHTML.slice(0, 60)"))

    # A long policy with a long line, scrolled to its end: the gutter and the highlight layer stay
    # on the text's lines (the textarea's scrollbars are accounted for).
    Select(driver.find_element(By.ID, "policy-example")).select_by_value("")  # so that choosing board again is a change
    Select(driver.find_element(By.ID, "policy-example")).select_by_value("board")
    wait.until(lambda d: rows_text() and rows_text()[1][:1] == ["Signup"])
    long_text = open(BOARD).read() + "".join(f"# filler {k}\n" for k in range(80)) + "# " + "long " * 120
    js("var t = document.getElementById('policy'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));"
       " t.scrollTop = t.scrollHeight; t.scrollLeft = t.scrollWidth;", long_text)
    time.sleep(0.3)  # the scroll events
    at = js("""var t = document.getElementById('policy'), n = t.value.split('\\n').length, r = t.getBoundingClientRect();
      return { text: r.top + t.clientTop + (n - 1) * 20 - t.scrollTop, scrolled: t.scrollTop, left: t.scrollLeft,
               gutter: document.querySelector('#gutter div[data-line="' + n + '"]').getBoundingClientRect().top,
               layer: document.querySelector('#layer div[data-line="' + n + '"]').getBoundingClientRect().top,
               layerLeft: document.getElementById('layer').scrollLeft }""")
    check(at["scrolled"] > 0 and at["left"] > 0 and abs(at["gutter"] - at["text"]) <= 1 and abs(at["layer"] - at["text"]) <= 1
          and abs(at["layerLeft"] - at["left"]) <= 1, f"scrolled to the end of a long policy, the last line's number and highlight sit on its text: {at}")

    # Hostile ids: a 200-character id wraps inside its row, whitespace shows, bidi controls are
    # isolated, and markup in an id is text.
    Select(driver.find_element(By.ID, "policy-example")).select_by_value("")  # so that choosing board again is a change
    Select(driver.find_element(By.ID, "policy-example")).select_by_value("board")
    wait.until(lambda d: rows_text() and rows_text()[1][:1] == ["Signup"])
    hostile = {"sections": [{"id": "Wide", "rows": ["W" * 200, "a\tb", "a b", "a  b", "a b "]},
                            {"id": "\u202eReversed", "rows": ["\u202eabc", '<img src=x onerror="window.pwned=1">']},
                            {"id": '<img src=y onerror="window.pwned=2">', "rows": ["<script>window.pwned=3</script>"]}]}
    js("window.pwned = undefined; var t = document.getElementById('table-json'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));",
       json.dumps(hostile))
    wait.until(lambda d: rows_text() and rows_text()[0][:1] == ["W" * 200])
    js("window.scrollTo(0, 0)")
    wide = js("""var d = document.documentElement, r = document.querySelector('.row[data-section="0"][data-row="0"]'), s = r.closest('.section');
      return { page: d.scrollWidth, viewport: d.clientWidth, id: (r.querySelector('.id') || r.firstElementChild).getBoundingClientRect().right,
               row: r.getBoundingClientRect().right, section: s.getBoundingClientRect().right }""")
    check(wide["page"] <= wide["viewport"] and wide["id"] <= wide["row"] and wide["row"] <= wide["section"],
          f"a 200-character id stays inside its row and section, and the page does not scroll sideways: {wide}")
    shown = js("""return [1, 2, 3, 4].map(function (k) { var r = document.querySelector('.row[data-section="0"][data-row="' + k + '"]'),
      e = r.querySelector('.id') || r.firstElementChild; return [e.innerText, Math.round(e.getBoundingClientRect().width)]; })""")
    check(len({t for t, _ in shown}) == 4 and len({w for _, w in shown}) == 4, f"ids that differ in whitespace look different: {shown}")
    isolation = js("""return [document.querySelector('.row[data-section="1"][data-row="0"]'), document.querySelector('[data-section-head="1"]')].map(
      function (r) { var e = Array.from(r.querySelectorAll('*')).find(function (e) { return e.textContent.indexOf('\u202e') >= 0; });
      return e ? getComputedStyle(e).unicodeBidi : null; })""")
    check(all(i in ("isolate", "isolate-override", "plaintext") for i in isolation), f"an id with U+202E is isolated: {isolation}")
    js("arguments[0].focus()", row(0, 1))
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    wait.until(lambda d: js("return !!document.querySelector('.slot.hover')") and "Picked up" in announced())
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ENTER).perform()
    decision_shown()
    check(js("return window.pwned === undefined && !document.querySelector('#board img, #board script, #decision img, #decision script')")
          and js("var r = Array.from(document.querySelectorAll('.row')).find(r => r.dataset.id === arguments[0]);"
                 " return (r.querySelector('.id') || r.firstElementChild).textContent", hostile["sections"][1]["rows"][1])
          == hostile["sections"][1]["rows"][1], "markup in an id is shown as text and never runs")

    # A 2,000-row table (issue #60, item 8): a drag passes slot after slot without drawing the
    # board again (the row elements picked up are the ones drawn before; while the pointer
    # passes slots, no element is added or removed: two classes change), and its long tasks
    # are recorded (a `longtask` PerformanceObserver). Time is measured here but asserted only
    # against a gross bound (120 ms: drawing the whole board again took 150-530 ms a task);
    # the figures are printed, and docs/PLAYGROUND.md gives them.
    big = {"sections": [{"id": "Big", "rows": [f"r{k}" for k in range(2000)]}, {"id": "Other", "rows": ["o1", "o2"]}]}
    js("var t = document.getElementById('table-json'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));", json.dumps(big))
    wait.until(lambda d: js("return document.querySelectorAll('.row').length") == 2002)
    js("window.scrollTo(0, 0); window.longTasks = []; window.firstRow = document.querySelector('.row[data-section=\"0\"][data-row=\"0\"]');"
       " new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) { window.longTasks.push(Math.round(e.duration)); }); })"
       ".observe({ type: 'longtask' });")
    ActionChains(driver).move_to_element(row(0, 3)).click_and_hold().move_by_offset(8, 8).perform()
    wait.until(lambda d: js("return document.querySelectorAll('.slot.ok, .slot.no').length === 2004"))
    kept = js("return window.firstRow === document.querySelector('.row[data-section=\"0\"][data-row=\"0\"]')")
    js("window.added = 0; window.boardWatch = new MutationObserver(function (list) { list.forEach(function (m) { window.added += m.addedNodes.length + m.removedNodes.length; }); });"
       " window.boardWatch.observe(document.getElementById('board'), { childList: true, subtree: true });")
    passed = 0
    for gap in range(6, 30):
        ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, f'.slot[data-slot-section="0"][data-gap="{gap}"]')).perform()
        passed += 1
    hovered = js("return document.querySelector('.slot.hover') && document.querySelector('.slot.hover').dataset.gap")
    added = js("window.boardWatch.disconnect(); return window.added")
    time.sleep(0.2)  # the last long task, if any, is reported
    tasks = js("return window.longTasks")
    print(f"note: a drag over 2,000 rows, pickup and {passed} slots: long tasks {tasks}")
    # (The last slot may lie near the window's edge, where the page scrolls on: the hovered
    # slot is then a later one.)
    check(kept and passed == 24 and hovered is not None and int(hovered) >= 29 and added == 0 and max(tasks or [0]) <= 120,
          f"a drag over a 2,000-row table keeps the rows drawn ({kept}), adds or removes no element as the pointer passes {passed} slots ({added}),"
          f" the hovered slot follows ({hovered}), long tasks {tasks} (none over 120 ms)")
    height = js("return window.innerHeight")
    edge = ActionBuilder(driver)
    edge.pointer_action.move_to_location(100, height - 6)
    edge.perform()
    time.sleep(0.6)
    scrolled = js("return window.scrollY")
    hovered_after = js("return document.querySelector('.slot.hover') && Number(document.querySelector('.slot.hover').dataset.gap)")
    check(scrolled > 100 and hovered_after is not None and hovered_after > 30,
          f"at the window's bottom edge the page scrolls ({scrolled} px) and the hovered slot follows (gap {hovered_after})")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    ActionChains(driver).release().perform()
    check(js("return !document.querySelector('.dragging') && document.querySelectorAll('.row').length === 2002")
          and js("return document.querySelector('.row[data-section=\"0\"][data-row=\"3\"]').dataset.id") == "r3",
          "Escape ends the drag over the big table, and nothing moved")
    time.sleep(0.2)
    print("note: long tasks over the whole drag, its end included:", js("return window.longTasks"))
    # A drop on the big table: the row goes to its target without the board drawn again, and
    # the board then shows the table the decision left (ids, places and labels as drawn).
    js("window.scrollTo(0, 0); window.longTasks = []; window.firstRow = document.querySelector('.row[data-section=\"0\"][data-row=\"0\"]');")
    ActionChains(driver).move_to_element(row(0, 3)).click_and_hold().move_by_offset(8, 8).perform()
    wait.until(lambda d: js("return document.querySelectorAll('.slot.ok, .slot.no').length === 2004"))
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, '.slot[data-slot-section="0"][data-gap="10"]')).perform()
    ActionChains(driver).release().perform()
    word, target, _, _ = decision_shown()
    time.sleep(0.2)
    drawn = js("""return Array.from(document.querySelectorAll('#board .section')).map(function (box, u) {
      return Array.from(box.querySelectorAll('.row')).map(function (r, k) {
        return [r.dataset.id, Number(r.dataset.section) === u && Number(r.dataset.row) === k, r.getAttribute('aria-label').indexOf('row ' + (k + 1) + ' of ') > 0]; }); })""")
    want = [f"r{k}" for k in range(2000)]
    want.insert(9, want.pop(3))
    check(word == "allowed" and target == "0.9" and [r[0] for r in drawn[0]] == want and all(r[1] and r[2] for s in drawn for r in s)
          and js("return window.firstRow === document.querySelector('.row[data-section=\"0\"][data-row=\"0\"]') && !document.querySelector('.slot')"),
          f"a drop on the big table moves the row in place ({word} {target}): the board shows the table after it, numbered again, rows kept")
    print("note: long tasks of a pickup and a drop on 2,000 rows:", js("return window.longTasks"))
    js("window.scrollTo(0, 0)")

    # The example pages: each list has a header (<h2>) and a footer ("+ Add card") that are not
    # rows. Each drop is checked against explain: the row that moved (the move the client
    # sent), the decision and target, and the whole table as drawn afterwards.
    def board():
        return js("return Array.from(document.querySelectorAll('.list')).map(l => Array.from(l.querySelectorAll('.item')).map(e => e.textContent))")

    def table_after(result):
        rows = [list(r) for r in SPRINT_ROWS]
        if result["decision"] in ("allowed", "retargeted"):
            (fs, fr), (ts, tr) = result["move"]["from"], result["target"]
            rows[ts].insert(tr, rows[fs].pop(fr))
        return rows

    def record_moves():
        # The client's transport, wrapped: the moves it sends. On the SortableJS page, also
        # where the card was in the DOM when SortableJS ended the drag (before the redraw):
        # its list and its place among that list's cards.
        js("window.sent = []; var t = client.transport, d = t.decide;"
           " t.decide = function (table, move) { window.sent.push(move); return d(table, move); };"
           " window.droppedAt = null; if (typeof Sortable === 'function') document.querySelectorAll('.list').forEach(function (l) {"
           "   var s = Sortable.get(l); if (!s) return; var f = s.option('onEnd'); s.option('onEnd', function (e) {"
           "     window.droppedAt = [Number(e.to.dataset.section), Array.from(e.to.querySelectorAll('.item')).indexOf(e.item)]; return f(e); }); });")

    def example_drop(label, name, want_from, want_to):
        wait.until(lambda d: js("return !!document.getElementById('status').dataset.decision"))
        sent = js("return window.sent")
        dropped = js("return window.droppedAt")
        if dropped is not None:
            check(len(sent) == 1 and sent[0]["to"] == dropped,
                  f"{label}: the move's destination is where SortableJS left the card, {dropped}: {sent}")
        check(len(sent) == 1 and sent[0]["from"] == want_from and sent[0]["to"] == want_to,
              f"{label}: the client sent the move of {name!r}, {want_from} -> {want_to}: {sent}")
        expected = explain(BOARD, ["--from", ".".join(map(str, want_from)), "--to", ".".join(map(str, want_to))])
        decision = js("return document.getElementById('status').dataset.decision")
        target = js("return document.getElementById('status').dataset.target")
        check(decision == expected["decision"] and target == ".".join(map(str, expected.get("target", []))),
              f"{label}: {decision} -> {target}, as explain decides ({expected['decision']} -> {expected.get('target')})")
        check(board() == table_after(expected), f"{label}: the board afterwards is the decided table: {board()}")

    def sortable_drag(name, onto, dy):
        """Real mouse input on the SortableJS page: press on the card `name`, move until the
        destinations arrive, move onto `onto` (dy pixels from its centre), release."""
        card = driver.find_element(By.XPATH, f"//div[@class='item' and text()='{name}']")
        ActionChains(driver, duration=50).move_to_element(card).click_and_hold().move_by_offset(0, 6).move_by_offset(0, 6).perform()
        wait.until(lambda d: js("return client.ready()"))
        chain = ActionChains(driver, duration=50)
        chain.move_to_element_with_offset(onto, 0, dy).move_by_offset(0, 1).move_by_offset(0, 1)
        chain.perform()
        time.sleep(0.1)
        ActionChains(driver).release().perform()

    # The SortableJS example page: onMove decides in the page, with no request per hover.
    network()
    driver.get(BASE + "/examples/sortable.html")
    wait.until(lambda d: js("return typeof Sortable === 'function' && document.querySelectorAll('.item').length === 9"))
    check(board() == SPRINT_ROWS and js("return document.querySelectorAll('.list h2, .list .footer').length") == 8,
          "SortableJS page: the sprint table, each list with a header and a footer")
    record_moves()
    js("window.onMoves = 0; document.querySelectorAll('.list').forEach(function (l) { var s = Sortable.get(l), f = s.option('onMove');"
       " s.option('onMove', function (e, o) { window.onMoves++; return f(e, o); }); });")
    network()
    card = driver.find_element(By.XPATH, "//div[@class='item' and text()='Signup']")
    review = driver.find_elements(By.CSS_SELECTOR, ".list")[2]
    onboarding = driver.find_element(By.XPATH, "//div[@class='item' and text()='Onboarding']")
    chain = ActionChains(driver, duration=50).move_to_element(card).click_and_hold().move_by_offset(0, 6).move_by_offset(0, 6)
    chain.perform()
    time.sleep(0.3)  # the destinations arrive
    before_hovers = len([u for u in network() if "/v1/" in u])
    chain = ActionChains(driver, duration=50)
    for dx in range(0, 5):
        chain.move_to_element_with_offset(review, -120 + dx * 30, 0)
    chain.move_to_element_with_offset(onboarding, 0, -6).move_by_offset(0, -2).move_by_offset(0, -2)
    chain.perform()
    during = [u for u in network() if "/v1/" in u]
    ActionChains(driver).release().perform()
    wait.until(lambda d: js("return !!document.getElementById('status').dataset.decision"))
    after = [u for u in network() if "/v1/" in u]
    moves = js("return window.onMoves")
    check(before_hovers == 1, f"one request at drag start ({before_hovers})")
    check(moves > 0 and during == [], f"{moves} onMove calls answered with no request")
    check(len(after) == 1 and after[0].endswith("/check"), f"one request at the drop: {after}")
    # Signup (1.0) dropped beside Onboarding (SortableJS puts it before or after, by the way the
    # pointer came): the move of Signup (not of Profile, as when the header was counted).
    landed = js("return window.droppedAt")
    check(landed in ([2, 0], [2, 1]), f"SortableJS: Signup landed in Review: {landed}")
    example_drop("SortableJS, Signup beside Onboarding", "Signup", [1, 0], landed)

    # Signup dropped straight onto the top of Onboarding: 1.0 -> 2.0.
    driver.get(BASE + "/examples/sortable.html")
    wait.until(lambda d: js("return typeof Sortable === 'function' && document.querySelectorAll('.item').length === 9"))
    record_moves()
    onboarding = driver.find_element(By.XPATH, "//div[@class='item' and text()='Onboarding']")
    sortable_drag("Signup", onboarding, -onboarding.size["height"] // 2 + 3)
    example_drop("SortableJS, Signup above Onboarding", "Signup", [1, 0], [2, 0])

    # The last card of a list (1.2), dropped at the end of another, above its footer.
    driver.get(BASE + "/examples/sortable.html")
    wait.until(lambda d: js("return typeof Sortable === 'function' && document.querySelectorAll('.item').length === 9"))
    record_moves()
    sortable_drag("Settings", driver.find_elements(By.CSS_SELECTOR, ".list .footer")[2], 0)
    example_drop("SortableJS, the last card of Doing to the end of Review", "Settings", [1, 2], [2, 1])

    # A refused slot: Archive takes no drops, so the card stays where onMove last allowed it.
    driver.get(BASE + "/examples/sortable.html")
    wait.until(lambda d: js("return typeof Sortable === 'function' && document.querySelectorAll('.item').length === 9"))
    record_moves()
    sortable_drag("Search", driver.find_element(By.XPATH, "//div[@class='item' and text()='Logo']"), -6)
    wait.until(lambda d: js("return !!document.getElementById('status').dataset.decision"))
    sent = js("return window.sent")
    check(len(sent) == 1 and sent[0]["from"] == [0, 2] and sent[0]["to"][0] != 3,
          f"SortableJS: Search was never let into Archive (onMove refused it): {sent}")
    example_drop("SortableJS, Search towards Archive", "Search", [0, 2], sent[0]["to"])
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check(errors == [], f"SortableJS page: no console error: {errors}")

    # Without SortableJS (the server 404s /examples/Sortable.min.js when Debian's libjs-sortable
    # is missing; blocked here), the page says what is missing instead of failing in the console.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*Sortable.min.js"]})
    driver.get(BASE + "/examples/sortable.html")
    wait.until(lambda d: js("return document.getElementById('status').dataset.decision === 'missing'"))
    check("libjs-sortable" in js("return document.getElementById('status').textContent"),
          "SortableJS page without SortableJS says what is missing: " + js("return document.getElementById('status').textContent"))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "Sortable.min.js" not in e["message"]]
    check(errors == [], f"SortableJS page without SortableJS: no script error: {errors}")
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})

    # The HTML5 example: Chromium's native drag cannot be driven by WebDriver, so the drag
    # events are dispatched from script (with a real DataTransfer) at the cards' positions.
    html5_helpers = """window.dt = new DataTransfer();
      window.fire = function (type, el, dy) { var r = el.getBoundingClientRect();
        var e = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: window.dt,
                                      clientX: r.left + 5, clientY: r.top + (dy === undefined ? r.height / 2 : dy) });
        el.dispatchEvent(e); return e.defaultPrevented; };
      window.card = function (name) { return Array.from(document.querySelectorAll('.item')).find(e => e.textContent === name); };"""
    driver.get(BASE + "/examples/html5.html")
    wait.until(lambda d: js("return document.querySelectorAll('.item').length === 9"))
    check(board() == SPRINT_ROWS, "HTML5 page: the sprint table, each list with a header and a footer")
    record_moves()
    network()
    js(html5_helpers + "fire('dragstart', card('Signup'));")
    wait.until(lambda d: js("return client.ready()"))
    archive_refused = not js("return fire('dragover', card('Logo'), 2)")
    check(archive_refused and js("return document.querySelectorAll('.list')[3].dataset.drop") == "refused",
          "HTML5: dragover on Archive is refused (no preventDefault)")
    check(js("return fire('dragover', card('Onboarding'), 2)") and js("return document.querySelectorAll('.list')[2].dataset.drop") == "ok",
          "HTML5: dragover on Review is accepted")
    js("fire('drop', card('Onboarding'), 2); fire('dragend', card('Signup'))")
    example_drop("HTML5, Signup above Onboarding", "Signup", [1, 0], [2, 0])
    sent = [u for u in network() if "/v1/" in u]
    check(len(sent) == 2 and sent[0].endswith("/destinations") and sent[1].endswith("/check"), f"HTML5: one request at start, one at drop: {sent}")

    # The last card of Backlog dropped on Review's footer: the end of Review.
    driver.get(BASE + "/examples/html5.html")
    wait.until(lambda d: js("return document.querySelectorAll('.item').length === 9"))
    record_moves()
    js(html5_helpers + "fire('dragstart', card('Search'));")
    wait.until(lambda d: js("return client.ready()"))
    js("var f = document.querySelectorAll('.list .footer')[2]; fire('dragover', f); fire('drop', f); fire('dragend', card('Search'))")
    example_drop("HTML5, the last card of Backlog onto Review's footer", "Search", [0, 2], [2, 1])
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check(errors == [], f"HTML5 page: no console error: {errors}")

    network()
    # Chromium's own chrome:// pages are not network; every http(s)/ws request must be ours.
    stray = [u for u in requests_seen if u.split(":")[0] in ("http", "https", "ws", "wss", "ftp") and not u.startswith(BASE + "/")]
    check(stray == [], f"no request left the loopback server ({len(requests_seen)} requests; others: {stray[:5]})")
    print(f"browser checks passed in {time.monotonic() - started:.1f} s")
finally:
    driver.quit()
