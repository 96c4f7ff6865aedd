#!/usr/bin/env python3
"""Sets a device up from an empty database in headless Chromium, the way a person would on the
page: the wearer (the phone checked as it is typed), the PIN twice, the keychain from the scan list,
five contacts and a sixth refused, an edit and a delete, the profile, a test alarm through the whole
chain, the history, the settings behind the PIN, and the login from another address. Arguments:
BASE (loopback) OUT REMOTE_BASE (a non-loopback address of the same daemon) TOKEN."""
import json, sys, time, urllib.error, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

base, out, remote, token = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
PIN = "4821"


def request(url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers.update(headers or {})
    req = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET", headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def text(browser, element_id):
    return browser.find_element(By.ID, element_id).text


def typed(browser, element_id, value):
    field = browser.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(value)


def submit(browser, form_id):
    browser.find_element(By.CSS_SELECTOR, f"#{form_id} button[type=submit]").click()


options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=375,1400"):
    options.add_argument(flag)
browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(browser, 20, poll_frequency=0.02)
try:
    # A device with nothing set up opens on its set-up, and its dashboard says nobody is protected.
    browser.get(base + "/")
    wait.until(lambda b: b.current_url.endswith("#setup") and b.find_element(By.ID, "setup-body").is_displayed())
    assert browser.find_element(By.ID, "setup-title").text == "Set up this device"
    browser.save_screenshot(out + "/setup-empty.png")

    # 1. The wearer: the phone is checked while it is typed.
    typed(browser, "person-name", "Ana Pereira")
    typed(browser, "person-phone", "912345678")
    wait.until(lambda b: "international form" in text(b, "person-phone-hint"))
    typed(browser, "person-phone", "+351912345678")
    wait.until(lambda b: text(b, "person-phone-hint") == "✓ valid number")
    typed(browser, "person-country", "pt")
    submit(browser, "person-form")
    wait.until(lambda b: "is protected" in b.find_element(By.CSS_SELECTOR, "#person-form .message").text)

    # 2. The PIN, twice: a mismatch is refused, then it is set.
    typed(browser, "new-pin", PIN)
    typed(browser, "confirm-pin", "4822")
    submit(browser, "pin-setup-form")
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#pin-setup-form .message").text == "The two PINs differ.")
    typed(browser, "new-pin", PIN)
    typed(browser, "confirm-pin", PIN)
    submit(browser, "pin-setup-form")
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#pin-setup-form .message").text == "PIN set.")

    # 3. The keychain: the scan lists both simulated tags with their signal; the near one is chosen,
    # beeps, and its (simulated) press confirms it.
    browser.find_element(By.ID, "scan").click()
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#scan-list button")) == 2)
    choices = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#scan-list button")]
    assert "-58 dBm" in choices[0] and "-83 dBm" in choices[1], choices
    browser.save_screenshot(out + "/setup-scan.png")
    browser.find_elements(By.CSS_SELECTOR, "#scan-list button")[0].click()
    WebDriverWait(browser, 40).until(lambda b: text(b, "pair-message").startswith("Paired: iTAG FF:FF:10:20:30:40"))

    # 4. Contacts: five, then a sixth refused by the device; one edited, one deleted.
    for n in range(1, 6):
        typed(browser, "contact-name", f"Contact {n}")
        typed(browser, "contact-phone", f"+35191333333{n}")
        submit(browser, "contact-form")
        wait.until(lambda b, n=n: len(b.find_elements(By.CSS_SELECTOR, "#setup-contacts li")) == n)
    wait.until(lambda b: "Five contacts is the most" in text(b, "contact-message"))
    typed(browser, "contact-name", "Contact 6")
    typed(browser, "contact-phone", "+351913333336")
    submit(browser, "contact-form")
    wait.until(lambda b: text(b, "contact-message") == "at most 5 contacts")
    # The page reloads the details after every answer; the device's refusal must still be there
    # once that reload has drawn the list again (it once replaced it within milliseconds).
    time.sleep(0.5)
    assert text(browser, "contact-message") == "at most 5 contacts", text(browser, "contact-message")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#setup-contacts li")) == 5
    browser.save_screenshot(out + "/setup-contacts-full.png")
    status, setup = request(base + "/api/setup/details", {"pin": PIN})
    assert status == 200 and len(setup["contacts"]) == 5 and "+351913333336" not in [c["phone"] for c in setup["contacts"]], setup
    browser.find_elements(By.CSS_SELECTOR, "#setup-contacts li")[0].find_element(By.XPATH, ".//button[text()='Edit']").click()
    typed(browser, "contact-name", "Rui Costa")
    submit(browser, "contact-form")
    wait.until(lambda b: "Rui Costa" in text(b, "setup-contacts"))
    browser.find_elements(By.CSS_SELECTOR, "#setup-contacts li")[4].find_element(By.XPATH, ".//button[text()='Delete']").click()
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#setup-contacts li")) == 4)

    # 5. The profile and sensitivity: the running detector switches.
    Select(browser.find_element(By.ID, "profile")).select_by_value("cycling")
    Select(browser.find_element(By.ID, "sensitivity")).select_by_value("high")
    submit(browser, "detector-form")
    wait.until(lambda b: "cycling profile" in b.find_element(By.CSS_SELECTOR, "#detector-form .message").text)
    status, report = request(base + "/api/status")
    assert report["detector"]["profile"] == "cycling", report["detector"]
    browser.save_screenshot(out + "/setup-done.png")

    # 6. A test alarm runs the whole chain and protection resumes by itself.
    browser.find_element(By.ID, "test-alarm").click()
    wait.until(lambda b: b.find_element(By.ID, "alarm").is_displayed())
    WebDriverWait(browser, 30).until(lambda b: not b.find_element(By.ID, "alarm").is_displayed())

    # The history: the test incident with its timeline and every message delivered, marked a test.
    browser.find_element(By.ID, "tab-history").click()
    wait.until(lambda b: "test alarm" in text(b, "incidents"))
    WebDriverWait(browser, 10).until(lambda b: (b.find_element(By.ID, "tab-history").click() or True)
                                     and text(b, "incidents").count("delivered") >= 5 and "test alarm delivered" in text(b, "incidents"))
    assert "+351913333332" not in text(browser, "incidents")
    browser.save_screenshot(out + "/history.png")

    # The dashboard: battery low and GPS weak (the receiver has a 2D fix with a poor HDOP).
    browser.find_element(By.ID, "tab-status").click()
    assert request(base + "/api/keychain/simulate", {"battery": 12})[0] == 200
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#row-battery .value").text == "12 %")
    WebDriverWait(browser, 30, poll_frequency=0.5).until(
        lambda b: (b.find_element(By.ID, "refresh").click() or True) and b.find_element(By.CSS_SELECTOR, "#row-gps .value").text == "Weak")
    assert "Last location recorded" in browser.find_element(By.CSS_SELECTOR, "#row-gps .detail").text
    assert browser.find_element(By.ID, "overall").get_attribute("data-level") == "warning"
    assert browser.find_element(By.ID, "not-set-up").is_displayed() is False
    browser.save_screenshot(out + "/dashboard-battery-low-gps-weak.png")

    # Settings are behind the PIN once set-up is done: a fresh visit sees masked numbers only.
    browser.get(base + "/#setup")
    browser.refresh()  # a new visit: the PIN this page kept in memory is gone
    wait.until(lambda b: b.find_element(By.ID, "unlock-form").is_displayed())
    assert "+351913333332" not in browser.page_source
    typed(browser, "unlock-pin", "0000")
    submit(browser, "unlock-form")
    wait.until(lambda b: text(b, "unlock-message") == "wrong PIN")
    typed(browser, "unlock-pin", PIN)
    submit(browser, "unlock-form")
    wait.until(lambda b: b.find_element(By.ID, "setup-body").is_displayed() and "+351913333332" in text(b, "setup-contacts"))
    browser.save_screenshot(out + "/settings-unlocked.png")

    # From another address: nothing but the page and the login without the token; a cross-site
    # POST is refused even with it; the right token opens the dashboard.
    assert request(remote + "/api/status")[0] == 401
    assert request(remote + "/api/sos", {}, {"Authorization": "Bearer " + token, "Origin": "http://evil.example"})[0] == 403
    assert request(remote + "/api/status", None, {"Authorization": "Bearer " + token})[0] == 200
    browser.get(remote + "/")
    wait.until(lambda b: b.find_element(By.ID, "login").is_displayed())
    typed(browser, "token", "not-the-token")
    submit(browser, "login-form")
    wait.until(lambda b: text(b, "login-message") == "wrong token")
    typed(browser, "token", token)
    submit(browser, "login-form")
    wait.until(lambda b: b.find_element(By.ID, "dashboard").is_displayed()
               and b.find_element(By.CSS_SELECTOR, "#row-keychain .value").text == "Connected")
    browser.save_screenshot(out + "/login-done.png")
finally:
    browser.quit()
print(json.dumps({"ok": True}))
