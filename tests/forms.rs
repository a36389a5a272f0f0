//! A form with a key field is one unit of the snapshot's first priority class: its fields,
//! boxes, buttons, labels and error message show whole at a small budget, while a long text
//! inside it (site rules, terms) may fold. Goldens of the pages an issue described (a login
//! with "remember me" and submit after a long block, a registration with the rules between
//! the fields and "I agree"), and assertions that say what must hold.

use agent_snapshot::{Document, RenderOptions, SnapshotResult, TreeOptions};

/// The page around a form: a menu and a footer of links, as real pages have, and a heading.
fn page(title: &str, body: &str) -> String {
    let menu: String = (0..30)
        .map(|i| format!("<li><a href=/section/{i}>Section number {i}</a></li>"))
        .collect();
    let footer: String = (0..20)
        .map(|i| format!("<a href=/legal/{i}>Legal page {i}</a> "))
        .collect();
    format!(
        "<!DOCTYPE html><html><head><title>{title}</title></head><body>\
         <header><a href=/>Example</a><nav><ul>{menu}</ul></nav></header>\
         <main><h1>{title}</h1>{body}</main><footer>{footer}</footer></body></html>"
    )
}

/// A long block of text: sentences that count (`Rule 1.` … `Rule n.`), so a test can tell
/// how much of it shows.
fn rules(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "Rule {i}. Members treat each other with respect, keep to the topic of the \
                 board, and do not post advertising, personal data or copyrighted material. "
            )
        })
        .collect()
}

fn snapshot(html: &str, max_chars: usize) -> SnapshotResult {
    let doc = Document::parse(html, &TreeOptions::default());
    let snap = doc.snapshot(&RenderOptions {
        max_chars_total: max_chars,
        ..Default::default()
    });
    assert!(snap.text.chars().count() <= max_chars, "{}", snap.text);
    snap
}

/// The line that shows the control with `name=<name>`, with its ref.
fn control_line<'s>(snap: &'s SnapshotResult, name: &str) -> &'s str {
    let attr = format!("[name={name}]");
    let line = snap
        .text
        .lines()
        .find(|l| l.contains(&attr))
        .unwrap_or_else(|| panic!("no line for {name}:\n{}", snap.text));
    assert!(line.contains("[ref=e"), "{line}");
    line
}

#[test]
fn a_login_keeps_remember_me_and_submit_after_a_long_block() {
    let html = page(
        "Sign in",
        &format!(
            "<form action=/session method=post>\
             <label>E-mail <input type=email name=email></label>\
             <label>Password <input type=password name=pass></label>\
             <div class=notice><p>{}</p></div>\
             <label><input type=checkbox name=remember> Remember me</label>\
             <button type=submit>Sign in</button></form>\
             <p>{}</p>",
            rules(20),
            rules(10)
        ),
    );
    let snap = snapshot(&html, 2_000);
    for name in ["email", "pass", "remember"] {
        control_line(&snap, name);
    }
    assert!(
        snap.text.contains("- button \"Sign in\" [ref=e"),
        "{}",
        snap.text
    );
    // The long block did not fit whole: it is cut or folded, not the controls after it.
    assert!(!snap.text.contains("Rule 20."), "{}", snap.text);
    insta::assert_snapshot!(snap.text);
}

#[test]
fn a_registration_keeps_i_agree_and_its_buttons_after_the_rules() {
    let html = page(
        "Create an account",
        &format!(
            "<form action=/register method=post>\
             <div><label for=u>User name</label><input id=u name=username></div>\
             <div><label for=m>E-mail</label><input id=m type=email name=mail></div>\
             <div><label for=p>Password</label><input id=p type=password name=pw></div>\
             <div><label for=p2>Repeat password</label><input id=p2 type=password name=pw2></div>\
             <h2>Site rules</h2><ol><li>{}</li><li>{}</li><li>{}</li></ol>\
             <fieldset><legend>Newsletter</legend>\
             <label><input type=radio name=news value=weekly> Weekly</label>\
             <label><input type=radio name=news value=never checked> Never</label></fieldset>\
             <select name=country><option>France<option>Germany</select>\
             <label><input type=checkbox name=agree required> I agree to the site rules</label>\
             <input type=submit value=Register><input type=reset value='Clear form'></form>",
            rules(8),
            rules(8),
            rules(8)
        ),
    );
    let snap = snapshot(&html, 2_000);
    for name in ["username", "mail", "pw", "pw2", "news", "country", "agree"] {
        control_line(&snap, name);
    }
    for button in ["Register", "Clear form"] {
        assert!(
            snap.text.contains(&format!("- button \"{button}\"")),
            "{button}:\n{}",
            snap.text
        );
    }
    assert!(!snap.text.contains("Rule 8."), "{}", snap.text);
    insta::assert_snapshot!(snap.text);
}

#[test]
fn a_forms_error_message_stays_with_its_fields() {
    let html = page(
        "Sign in",
        &format!(
            "<p>{}</p><form action=/session method=post>\
             <div class=error>The e-mail address or password you entered is incorrect. \
             Check them and try again, or reset your password.</div>\
             <div role=alert>Too many attempts: wait a minute.</div>\
             <input type=email name=email placeholder=E-mail>\
             <input type=password name=pass placeholder=Password>\
             <button>Sign in</button></form><p>{}</p>",
            rules(20),
            rules(12)
        ),
    );
    let snap = snapshot(&html, 2_000);
    assert!(snap.text.contains("is incorrect."), "{}", snap.text);
    assert!(snap.text.contains("Too many attempts"), "{}", snap.text);
    control_line(&snap, "email");
    control_line(&snap, "pass");
    insta::assert_snapshot!(snap.text);
}

#[test]
fn controls_without_a_form_element_are_one_form() {
    // A script-built login: fields and buttons in `div`s, no `<form>`, after a toolbar whose
    // buttons rank with the main content.
    let tools: String = (0..15)
        .map(|i| format!("<button>Tool {i}</button>"))
        .collect();
    let html = page(
        "Log in",
        &format!(
            "<div class=toolbar>{tools}</div><div class=login>\
             <div><input type=email name=login placeholder='E-mail or phone'></div>\
             <div><input type=password name=secret placeholder=Password></div>\
             <div class=hint>{}</div>\
             <div><label><input type=checkbox name=stay> Stay signed in</label></div>\
             <div><div role=button tabindex=0>Log in</div></div></div>\
             <p>{}</p>",
            rules(6),
            rules(20)
        ),
    );
    let snap = snapshot(&html, 2_000);
    for name in ["login", "secret", "stay"] {
        control_line(&snap, name);
    }
    assert!(
        snap.text.contains("- button \"Log in\" [ref=e"),
        "{}",
        snap.text
    );
    insta::assert_snapshot!(snap.text);
}
