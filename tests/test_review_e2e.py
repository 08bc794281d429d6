"""In the browser: a game played to its end, "Save this game" offered, "Review my game" with its chart drawn,
and a decision opened in the sandbox. (The hinted card's light is drawn by table.js from the table's `hint`
trait; tests/test_widgets_review.py checks the trait, this file the review.)"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect  # noqa: E402
from test_e2e import (
    STEP_MS,
    lit_or_over,
    no_error_shown,
    open_home,
    shot,
    table_move,
    table_pace,
    table_version,
    wait_new_table,
)

pytestmark = pytest.mark.browser

REVIEW_MS = 120_000  # the review grades every decision of the game (a few seconds; slow on a busy machine)


def test_review_my_game_draws_the_chart_and_opens_a_decision_in_the_sandbox(page: Page, voila_url):
    table_pace(page, "off")  # the review is tested here, not the playback
    open_home(page, voila_url, width=1280)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    screen.locator(".uu-players select").select_option("2")
    old = table_version(screen)
    screen.locator("button.uu-new-game").click()
    wait_new_table(page, screen, old)
    expect(screen.locator("button.uu-review-game")).to_be_hidden()
    for _ in range(400):
        if lit_or_over(page, screen):
            break
        table_move(page, screen)
        no_error_shown(page)
    expect(screen.locator(".uu-result .uu-banner")).to_contain_text("Game over", timeout=STEP_MS)
    screen.locator("button.uu-save-game").click()
    link = screen.locator("a.uu-save-download")
    expect(link).to_have_attribute("href", re.compile(r"^data:application/json;base64,"))
    screen.locator("button.uu-review-game").click()
    review = page.locator(".uu-review-screen")
    chart = review.locator("svg.uu-review-chart")
    expect(chart).to_be_visible(timeout=REVIEW_MS)
    assert chart.locator("circle.uu-review-point").count() >= 3
    assert "chance to win" in (chart.get_attribute("aria-label") or "")
    expect(review.locator(".uu-review-turning")).to_contain_text("Key moments")  # the review opens with them
    shot(page, "review-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "review-390")
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= 391, f"the review scrolls sideways at 390 px: {scroll}"
    page.set_viewport_size({"width": 1280, "height": 800})
    moments = review.locator("button.uu-review-moment")
    if moments.count():  # a key moment opens its position
        moments.first.click()
    else:  # else a decision of the folded list, opened first
        review.get_by_text(re.compile(r"^Every decision")).first.click()
        review.locator("button.uu-review-decision").first.click()
    sandbox = page.locator(".uu-sandbox-screen")
    expect(sandbox).to_be_visible(timeout=STEP_MS)
    expect(sandbox.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    shot(page, "review-opened-in-sandbox")
    no_error_shown(page)
    assert "Traceback" not in page.inner_text("body")
