//! `act`: each operation as a person would do it (real mouse and key events through CDP,
//! or the script's own action), then the wait for the page to settle.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::dom::SetFileInputFilesParams;
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchDragEventParams, DispatchDragEventType, DispatchKeyEventParams, DispatchKeyEventType,
    DispatchMouseEventParams, DispatchMouseEventType, DispatchTouchEventParams,
    DispatchTouchEventType, EventDragIntercepted, InsertTextParams, MouseButton,
    SetInterceptDragsParams, TouchPoint,
};
use futures::StreamExt;
use serde_json::{json, Map, Value};

use super::dialogs::Dialog;
use super::protocol::{check_keys, opt_str};
use super::refs::Target;
use super::session::{PageState, Session, STATE_JS};
use super::{AgentError, Code, Result};
use crate::js;

/// How many moves a drag takes from its source to its target: pointer-drag libraries start
/// a drag only once the pointer has moved some pixels with the button down, and follow the
/// moves in between.
const DRAG_STEPS: u32 = 8;

/// How long the browser may take, after the last move, to hand back an HTML5 drag; a drag
/// that is not one (a pointer-drag library's) waits this long once.
const DRAG_START_WAIT: Duration = Duration::from_millis(100);

/// How long a long press holds unless the call says: past the 500 ms that Chromium's touch
/// gesture detector and most long-press handlers wait for.
const LONG_PRESS_MS: u64 = 800;

/// The longest hold a long press may ask for: the agent does nothing else meanwhile.
const LONG_PRESS_MAX_MS: u64 = 10_000;

/// Whether the page's primary pointer is a finger (the browser emulates a touch screen, or
/// is on one): then a long press is a held touch by default. Headless Chromium presents
/// itself so (a coarse pointer, no hover, touch events on), a desktop window as a mouse.
const TOUCH_JS: &str = "matchMedia('(pointer: coarse)').matches";

impl Session {
    pub(super) async fn act(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(
            args,
            &[
                "ref",
                "op",
                "value",
                "values",
                "key",
                "direction",
                "amount",
                "files",
                "to",
                "duration_ms",
                "pointer",
            ],
        )?;
        let op = opt_str(args, "op")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "\"op\" is required"))?
            .to_string();
        // Page-level operations need no ref.
        let needs_ref = !matches!(op.as_str(), "press_key" | "scroll") || args.contains_key("ref");
        let (target, before) = if needs_ref {
            let (target, state) = self.live_ref(args).await?;
            (Some(target), Some(state))
        } else {
            (None, self.state().await)
        };
        if let (true, Some(target)) = (self.options.sidebar, &target) {
            // Outline the element (in a cross-origin frame: its frame) and move the panel off
            // it; the sidebar never fails an act.
            let mark = self.top_mark(target.frame, &target.page);
            let _ = self
                .ui_call(&format!("touch({})", js::js_literal(&mark)))
                .await;
        }
        // A cross-origin frame's changes are not the tab document's: count them there.
        let frame = target.as_ref().and_then(|t| t.frame);
        let frame_before = match frame {
            Some(_) => self.frame_mutations(frame).await,
            None => None,
        };
        match self.perform(&op, target.as_ref(), args).await {
            // The action opened a dialog: answer now (a click's input event stays blocked
            // until the dialog closes).
            Err(e) if e.code == Code::DialogOpen => {
                if let Some(dialog) = self.open_dialog() {
                    self.tab_mut().before_dialog = before;
                    return Ok(self.dialog_result(&dialog).await);
                }
                return Err(e);
            }
            done => done?,
        }
        let mut done = self.after_action(before.as_ref()).await?;
        if let (Some(then), Some(map)) = (frame_before, done.as_object_mut()) {
            if map.contains_key("changed") && self.frame_mutations(frame).await != Some(then) {
                map.insert("changed".into(), Value::Bool(true));
            }
        }
        Ok(done)
    }

    /// How many changes the document of a cross-origin frame has seen ([`STATE_JS`]).
    async fn frame_mutations(&self, frame: Option<usize>) -> Option<u64> {
        let json = self.eval_json_in(self.reach(frame), STATE_JS).await.ok()?;
        serde_json::from_str::<PageState>(&json)
            .ok()
            .map(|s| s.mutations)
    }

    /// After an action (or a dialog's answer): waits for the page to settle and answers
    /// `{changed, navigated, url, title}`, with `dialog` when the page opened one meanwhile,
    /// and `tab` when it opened a tab (which is then the current one).
    pub(super) async fn after_action(&mut self, before: Option<&PageState>) -> Result<Value> {
        let settled = self.settle(before).await;
        if settled.navigated {
            // Even a page restored from the back/forward cache is another visit: look again.
            self.navigated();
        }
        if let Some(dialog) = settled.dialog {
            self.tab_mut().before_dialog = before.cloned();
            return Ok(self.dialog_result(&dialog).await);
        }
        let tab = self.adopt_opened_tabs().await;
        let (url, title) = self.url_title().await;
        let mut done = json!({
            "changed": settled.changed || tab.is_some(),
            "navigated": settled.navigated,
            "url": url,
            "title": title,
        });
        if let Some(tab) = tab {
            done["tab"] = tab;
        }
        Ok(done)
    }

    pub(super) async fn perform(
        &self,
        op: &str,
        target: Option<&Target>,
        args: &Map<String, Value>,
    ) -> Result<()> {
        // Only press_key and scroll come without a ref, and they look at `target` first.
        let none = Target::default();
        let ref_ = target.unwrap_or(&none);
        match op {
            "click" => self.click(ref_, 1).await,
            "dblclick" => self.click(ref_, 2).await,
            "long_press" => self.long_press(ref_, args).await,
            "upload" => self.upload(ref_, args).await,
            "drag" => self.drag(ref_, args).await,
            "fill" => {
                let value = opt_str(args, "value")?
                    .ok_or_else(|| AgentError::new(Code::InvalidArgs, "fill needs \"value\""))?;
                self.script_action(ref_, "fill", json!({ "value": value }))
                    .await
            }
            "select" => {
                let values = match (args.get("values"), args.get("value")) {
                    (Some(Value::Array(v)), _) => Value::Array(v.clone()),
                    (_, Some(Value::String(s))) => json!([s]),
                    _ => {
                        return Err(AgentError::new(
                            Code::InvalidArgs,
                            "select needs \"value\" (a string) or \"values\" (strings)",
                        ))
                    }
                };
                self.script_action(ref_, "select", json!({ "values": values }))
                    .await
            }
            "check" | "uncheck" | "hover" | "focus" | "clear" => {
                self.script_action(ref_, op, json!({})).await
            }
            "scroll" if target.is_some() => {
                self.script_action(ref_, "scroll_into_view", json!({}))
                    .await
            }
            "scroll" => {
                let direction = opt_str(args, "direction")?
                    .unwrap_or("down")
                    .parse::<js::Direction>()
                    .map_err(|e| AgentError::new(Code::InvalidArgs, e.to_string()))?;
                let amount = args.get("amount").and_then(Value::as_i64).unwrap_or(600);
                self.script_eval(&js::scroll_js(direction, amount))
                    .await
                    .map(drop)
            }
            "type" => {
                let text = opt_str(args, "value")?
                    .ok_or_else(|| AgentError::new(Code::InvalidArgs, "type needs \"value\""))?;
                self.script_action(ref_, "focus", json!({})).await?;
                self.input(Ok(InsertTextParams::new(text))).await
            }
            "press_key" => {
                if target.is_some() {
                    self.script_action(ref_, "focus", json!({})).await?;
                }
                let key = opt_str(args, "key")?
                    .or(opt_str(args, "value")?)
                    .ok_or_else(|| AgentError::new(Code::InvalidArgs, "press_key needs \"key\""))?;
                self.press_key(key).await
            }
            other => Err(AgentError::new(
                Code::InvalidArgs,
                format!(
                    "unknown op {other:?}: click, dblclick, long_press, fill, type, select, \
                     check, uncheck, hover, focus, clear, press_key, scroll, upload or drag"
                ),
            )),
        }
    }

    /// A real mouse click at the element's centre (`clicks` 2: a double click, which the page
    /// sees as two clicks and a `dblclick`, as from a person); the script's click when it has
    /// no box.
    pub(super) async fn click(&self, ref_: &Target, clicks: i64) -> Result<()> {
        let Some((x, y)) = self.point(ref_, true).await? else {
            return self.script_action(ref_, "click", json!({})).await;
        };
        self.mouse(DispatchMouseEventType::MouseMoved, (x, y), 0)
            .await?;
        // Each press and release says which click of the run it is (`detail`).
        for count in 1..=clicks {
            for kind in [
                DispatchMouseEventType::MousePressed,
                DispatchMouseEventType::MouseReleased,
            ] {
                let event = DispatchMouseEventParams::builder()
                    .r#type(kind)
                    .x(x)
                    .y(y)
                    .button(MouseButton::Left)
                    .click_count(count);
                self.input(event.build()).await?;
            }
        }
        Ok(())
    }

    /// `long_press {duration_ms, pointer}`: the pointer goes down at the element's point,
    /// stays there `duration_ms` (default [`LONG_PRESS_MS`]), and comes up: with the left
    /// mouse button, or as one finger (`Input.dispatchTouchEvent`), which `pointer` chooses
    /// (`mouse`, `touch`) and otherwise the page's primary pointer ([`TOUCH_JS`]): a
    /// touch page listens for touches, and a held touch sends it no mouse events.
    async fn long_press(&self, ref_: &Target, args: &Map<String, Value>) -> Result<()> {
        let ms = match args.get("duration_ms") {
            None | Some(Value::Null) => LONG_PRESS_MS,
            Some(v) => v
                .as_u64()
                .filter(|ms| *ms <= LONG_PRESS_MAX_MS)
                .ok_or_else(|| {
                    AgentError::new(
                        Code::InvalidArgs,
                        format!("duration_ms is 0 to {LONG_PRESS_MAX_MS} milliseconds"),
                    )
                })?,
        };
        let pointer = match opt_str(args, "pointer")? {
            None => None,
            Some("mouse") => Some(false),
            Some("touch") => Some(true),
            Some(other) => {
                return Err(AgentError::new(
                    Code::InvalidArgs,
                    format!("pointer {other:?}: use mouse or touch"),
                ))
            }
        };
        let (x, y) = self.point(ref_, true).await?.ok_or_else(|| {
            AgentError::new(
                Code::ActionFailed,
                format!("{} has no box to press on", ref_.public),
            )
        })?;
        let hold = Duration::from_millis(ms);
        let touch = match pointer {
            Some(touch) => touch,
            // Input goes to the tab, whose page says what its pointer is.
            None => self.eval_bool_in(None, TOUCH_JS).await.unwrap_or(false),
        };
        if touch {
            let start = DispatchTouchEventParams::builder()
                .r#type(DispatchTouchEventType::TouchStart)
                .touch_point(TouchPoint::new(x, y));
            self.input(start.build()).await?;
            tokio::time::sleep(hold).await;
            return self.input(Ok(TouchEnd::new())).await;
        }
        self.mouse(DispatchMouseEventType::MouseMoved, (x, y), 0)
            .await?;
        self.mouse(DispatchMouseEventType::MousePressed, (x, y), 1)
            .await?;
        tokio::time::sleep(hold).await;
        self.mouse(DispatchMouseEventType::MouseReleased, (x, y), 0)
            .await
    }

    /// Where a person would press on the element: its centre in the viewport, scrolled to
    /// the middle first when `scroll` ([`js::point_js`]); `None` when it has no box.
    /// In a cross-origin frame the point is measured in the frame's viewport and moved by the
    /// frame's origin in the tab's; its `<iframe>`s are scrolled into view first, outermost
    /// first, so that the element's own scrolling has only its frame to move.
    async fn point(&self, ref_: &Target, scroll: bool) -> Result<Option<(f64, f64)>> {
        if scroll && ref_.frame.is_some() {
            self.show_frame(ref_.frame).await?;
        }
        let reach = self.reach(ref_.frame);
        let json = self
            .eval_json_in(reach, &js::point_js(&ref_.page, scroll))
            .await?;
        let center: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        let fail = |why: &str| {
            Err(AgentError::new(
                Code::ActionFailed,
                format!("{} {why}", ref_.public),
            ))
        };
        match center.get("error").and_then(Value::as_str) {
            Some("ref_not_found") => Err(ref_.left()),
            Some("disabled") => fail("is disabled"),
            Some("out_of_view") => fail("is out of view once the dragged element is in view"),
            Some(_) => Ok(None),
            None => {
                let Some((x, y)) = center["x"].as_f64().zip(center["y"].as_f64()) else {
                    return Ok(None);
                };
                let (dx, dy) = match ref_.frame {
                    Some(_) => self.settled_frame_origin(ref_.frame, scroll).await?,
                    None => (0.0, 0.0),
                };
                Ok(Some((x + dx, y + dy)))
            }
        }
    }

    /// The frame's origin in the tab's viewport ([`Session::frame_origin`]). After a scroll in
    /// an out-of-process frame, Chromium may still be scrolling the documents above it (the
    /// frame's process asks theirs): read until two readings agree, a few times at most.
    async fn settled_frame_origin(
        &self,
        frame: Option<usize>,
        scrolled: bool,
    ) -> Result<(f64, f64)> {
        let mut origin = self.frame_origin(frame).await?;
        if !scrolled {
            return Ok(origin);
        }
        for _ in 0..4 {
            tokio::time::sleep(Duration::from_millis(30)).await;
            let again = self.frame_origin(frame).await?;
            if again == origin {
                break;
            }
            origin = again;
        }
        Ok(origin)
    }

    /// Scrolls the `<iframe>`s that hold the frame document `frame` into view, outermost
    /// first.
    async fn show_frame(&self, frame: Option<usize>) -> Result<()> {
        for (holder, mark) in self.frames.holders(frame).into_iter().rev() {
            let expr = js::action_js(&mark, "scroll_into_view", &json!({}));
            self.script_eval_in(self.reach(holder), &expr).await?;
        }
        Ok(())
    }

    /// One mouse event at `at`; `buttons` 1 while the left button is held (a move then
    /// says so, as pointer-drag libraries check `event.buttons`).
    async fn mouse(
        &self,
        kind: DispatchMouseEventType,
        at: (f64, f64),
        buttons: i64,
    ) -> Result<()> {
        let mut event = DispatchMouseEventParams::builder()
            .r#type(kind.clone())
            .x(at.0)
            .y(at.1)
            .buttons(buttons);
        // Blink takes a move for a drag only when it names the held button too.
        if kind != DispatchMouseEventType::MouseMoved || buttons != 0 {
            event = event.button(MouseButton::Left);
        }
        if kind != DispatchMouseEventType::MouseMoved {
            event = event.click_count(1);
        }
        self.input(event.build()).await
    }

    /// `drag {to}`: press on the element, move to `to`'s centre in [`DRAG_STEPS`] steps,
    /// release there. With CDP drag interception on
    /// ([`Input.setInterceptDrags`](https://chromedevtools.github.io/devtools-protocol/tot/Input/#method-setInterceptDrags)),
    /// an HTML5 drag (`draggable`) that the moves start is handed back to the agent
    /// (`Input.dragIntercepted`, with the page's drag data) and finished with
    /// `Input.dispatchDragEvent` enter, over and drop at the target, as Puppeteer does;
    /// otherwise the moves themselves drive pointer-event drag libraries.
    async fn drag(&self, from: &Target, args: &Map<String, Value>) -> Result<()> {
        let to = opt_str(args, "to")?.ok_or_else(|| {
            AgentError::new(Code::InvalidArgs, "drag needs \"to\": the ref to drop on")
        })?;
        let to = self.resolve(to)?;
        let no_box = |t: &Target| {
            AgentError::new(
                Code::ActionFailed,
                format!("{} has no box to drag", t.public),
            )
        };
        let start = self.point(from, true).await?.ok_or_else(|| no_box(from))?;
        let end = self.point(&to, false).await?.ok_or_else(|| no_box(&to))?;
        let mut intercepted = self
            .page()
            .event_listener::<EventDragIntercepted>()
            .await
            .map_err(|e| AgentError::new(Code::ActionFailed, format!("cannot watch drags: {e}")))?;
        self.input(Ok(SetInterceptDragsParams::new(true))).await?;
        let done = async {
            self.mouse(DispatchMouseEventType::MouseMoved, start, 0)
                .await?;
            self.mouse(DispatchMouseEventType::MousePressed, start, 1)
                .await?;
            let mut data = None;
            for step in 1..=DRAG_STEPS {
                let t = f64::from(step) / f64::from(DRAG_STEPS);
                let at = (
                    start.0 + (end.0 - start.0) * t,
                    start.1 + (end.1 - start.1) * t,
                );
                self.mouse(DispatchMouseEventType::MouseMoved, at, 1)
                    .await?;
                // The browser reports an HTML5 drag right after the move that starts it.
                let wait = if step == DRAG_STEPS {
                    DRAG_START_WAIT
                } else {
                    Duration::ZERO
                };
                if let Ok(Some(event)) = tokio::time::timeout(wait, intercepted.next()).await {
                    data = Some(event.data.clone());
                    break;
                }
            }
            if let Some(data) = data {
                for kind in [
                    DispatchDragEventType::DragEnter,
                    DispatchDragEventType::DragOver,
                    DispatchDragEventType::Drop,
                ] {
                    let event = DispatchDragEventParams::builder()
                        .r#type(kind)
                        .x(end.0)
                        .y(end.1)
                        .data(data.clone());
                    self.input(event.build()).await?;
                }
            }
            self.mouse(DispatchMouseEventType::MouseReleased, end, 0)
                .await
        }
        .await;
        // Off again whatever happened: a person's later drags in an attached browser are theirs.
        let _ = self.input(Ok(SetInterceptDragsParams::new(false))).await;
        done
    }

    /// `upload`: sets the file input's files through CDP `DOM.setFileInputFiles`
    /// ([spec](https://chromedevtools.github.io/devtools-protocol/tot/DOM/#method-setFileInputFiles)),
    /// which fires `input` and `change` as a person's choice does. Every file must exist.
    async fn upload(&self, ref_: &Target, args: &Map<String, Value>) -> Result<()> {
        let files = match args.get("files") {
            Some(Value::Array(files)) if !files.is_empty() => files,
            _ => {
                return Err(AgentError::new(
                    Code::InvalidArgs,
                    "upload needs \"files\": an array of file paths",
                ))
            }
        };
        let mut paths = Vec::new();
        for file in files {
            let path = file.as_str().ok_or_else(|| {
                AgentError::new(Code::InvalidArgs, "each of \"files\" is a path (a string)")
            })?;
            let full = std::fs::canonicalize(path)
                .ok()
                .filter(|p| p.is_file())
                .ok_or_else(|| AgentError::new(Code::InvalidArgs, format!("no file at {path}")))?;
            paths.push(full.to_string_lossy().into_owned());
        }
        // The element itself (a remote object, in its own document), only when it is a file
        // input.
        let reach = self.reach(ref_.frame);
        let expr = format!(
            "(el => el && el.localName === 'input' && el.type === 'file' ? el : null)({})",
            js::ref_element_js(&ref_.page)
        );
        let object = self.object_in(reach, &expr).await?.ok_or_else(|| {
            AgentError::new(
                Code::ActionFailed,
                format!("{} is not a file input (or left the page)", ref_.public),
            )
        })?;
        let mut set = SetFileInputFilesParams::new(paths);
        set.object_id = Some(object);
        self.command_in(reach, set)
            .await
            .map(drop)
            .map_err(|e| AgentError::new(e.code, format!("upload failed: {e}")))
    }

    /// Sends one built CDP input event.
    pub(super) async fn input<T: chromiumoxide::types::Command>(
        &self,
        event: std::result::Result<T, String>,
    ) -> Result<()> {
        let event = event.map_err(|e| AgentError::new(Code::ActionFailed, e))?;
        // Raced against dialogs: a click whose handler opens one waits until it closes.
        self.guarded(async {
            self.page().execute(event).await.map(drop).map_err(|e| {
                AgentError::new(Code::ActionFailed, format!("input event failed: {e}"))
            })
        })
        .await
    }

    pub(super) async fn press_key(&self, key: &str) -> Result<()> {
        let Some(def) = chromiumoxide::keys::get_key_definition(key) else {
            // Not a named key: type it as text.
            return self.input(Ok(InsertTextParams::new(key))).await;
        };
        // As Puppeteer does: a key with text is a keyDown carrying it, others a rawKeyDown.
        let text = def
            .text
            .or((def.key.chars().count() == 1).then_some(def.key));
        let down = if text.is_some() {
            DispatchKeyEventType::KeyDown
        } else {
            DispatchKeyEventType::RawKeyDown
        };
        for kind in [down, DispatchKeyEventType::KeyUp] {
            let mut event = DispatchKeyEventParams::builder()
                .r#type(kind.clone())
                .key(def.key)
                .code(def.code)
                .windows_virtual_key_code(def.key_code)
                .native_virtual_key_code(def.key_code);
            if let (Some(text), false) = (text, kind == DispatchKeyEventType::KeyUp) {
                event = event.text(text);
            }
            self.input(event.build()).await?;
        }
        Ok(())
    }

    pub(super) async fn script_action(
        &self,
        ref_: &Target,
        action: &str,
        params: Value,
    ) -> Result<()> {
        let json = self
            .script_eval_in(
                self.reach(ref_.frame),
                &js::action_js(&ref_.page, action, &params),
            )
            .await?;
        let result = js::parse_action_result(&json)
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))?;
        if result.success {
            return Ok(());
        }
        let error = result.error.unwrap_or_default();
        Err(match error.as_str() {
            "ref_not_found" | "not_injected" => ref_.left(),
            _ => AgentError::new(
                Code::ActionFailed,
                format!("{action} on {} failed: {error}", ref_.public),
            ),
        })
    }

    /// Waits after an action: for the load when it navigated, otherwise until the DOM has
    /// been quiet for [`LaunchOptions::quiet`](super::LaunchOptions::quiet); never longer than the cap.
    pub(super) async fn settle(&self, before: Option<&PageState>) -> Settled {
        let start = Instant::now();
        let mut navigated = false;
        let mut changed = false;
        loop {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let state = self.state().await;
            if let Some(dialog) = self.open_dialog() {
                return Settled {
                    changed: true,
                    navigated,
                    dialog: Some(dialog),
                };
            }
            match (&state, before) {
                // The context is being replaced: a navigation is under way.
                (None, _) => navigated = true,
                (Some(now), Some(b)) => {
                    if now.token != b.token || now.url != b.url {
                        navigated = true;
                    }
                    if now.mutations != b.mutations {
                        changed = true;
                    }
                }
                (Some(_), None) => {}
            }
            if let Some(now) = &state {
                let loaded = now.ready == "complete";
                let quiet = now.quiet_ms >= self.options.quiet.as_millis() as f64;
                if loaded && quiet && start.elapsed() >= Duration::from_millis(100) {
                    break;
                }
            }
            if start.elapsed() >= self.options.settle_cap {
                break;
            }
        }
        Settled {
            changed: changed || navigated,
            navigated,
            dialog: None,
        }
    }
}

/// `Input.dispatchTouchEvent` `touchEnd`: the protocol requires its `touchPoints`, empty,
/// and chromiumoxide's generated params leave an empty list out (`-32602`).
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TouchEnd {
    r#type: &'static str,
    touch_points: [(); 0],
}

impl TouchEnd {
    fn new() -> TouchEnd {
        TouchEnd {
            r#type: "touchEnd",
            touch_points: [],
        }
    }
}

impl chromiumoxide::types::Method for TouchEnd {
    fn identifier(&self) -> chromiumoxide::types::MethodId {
        std::borrow::Cow::Borrowed("Input.dispatchTouchEvent")
    }
}

impl chromiumoxide::types::Command for TouchEnd {
    type Response = Value;
}

pub(super) struct Settled {
    pub(super) changed: bool,
    pub(super) navigated: bool,
    /// A dialog the page opened meanwhile (it blocks the page: the wait ends there).
    pub(super) dialog: Option<Dialog>,
}
