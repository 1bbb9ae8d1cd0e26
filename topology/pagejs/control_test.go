package pagejs_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/frontlatch/frontlatch/topology/pagejs"
	"github.com/frontlatch/frontlatch/topology/topologytest"
)

// controlPage's form keeps its state as a React page does: what the page
// sends is what its tracking saw.
const controlPage = `<!doctype html><html><body><form>
<input name="name"><textarea name="message"></textarea>
<select name="service"><option value="">Choose</option><option value="leak">Leak</option><option value="hot-water">Hot water</option></select>
<select name="rooms" multiple><option value="kitchen">Kitchen</option><option value="bath">Bath</option><option value="laundry">Laundry</option></select>
<input type="checkbox" name="agree" value="yes">
<input type="checkbox" name="topics" value="gas"><input type="checkbox" name="topics" value="water" checked>
<input type="radio" name="reply" value="email" checked><input type="radio" name="reply" value="phone">
<input type="checkbox" name="sticky" value="on" onclick="return false">
</form><script>` + topologytest.TrackLikeReact + `</script></body></html>`

// TestControl sets a page's controls with setValue, setChecked and
// setSelected, and the page's own state, kept as React keeps it, follows;
// the same values assigned to the elements' properties, as a script
// commonly does, leave it as it was (which is what makes the test page a
// React page).
func TestControl(t *testing.T) {
	ctx, page := openTestPage(t, controlPage)
	fill := pagejs.MustInline(`(how) => {
  //pagejs:include control
  const f = document.forms[0], el = (n) => f.elements.namedItem(n);
  const box = (n, v) => Array.from(f.querySelectorAll("[name=" + n + "]")).find((e) => e.value === v);
  if (how === "assign") {
    el("name").value = "Ana Silva"; el("message").value = "Leaking tap";
    box("agree", "yes").checked = true; box("topics", "gas").checked = true; box("topics", "water").checked = false;
    box("reply", "phone").checked = true;
    for (const e of f.querySelectorAll("input, textarea")) { e.dispatchEvent(new Event("input", { bubbles: true })); e.dispatchEvent(new Event("change", { bubbles: true })); }
  } else {
    setValue(el("name"), "Ana Silva"); setValue(el("message"), "Leaking tap");
    setSelected(el("service"), ["hot-water"]); setSelected(el("rooms"), ["kitchen", "laundry"]);
    setChecked(box("agree", "yes"), true); setChecked(box("topics", "gas"), true); setChecked(box("topics", "water"), false);
    setChecked(box("reply", "phone"), true); setChecked(box("reply", "email"), false);
    setChecked(box("sticky", "on"), true);
    setChecked(box("agree", "yes"), true); // already checked: no second click
  }
  return JSON.stringify({ state: window.pageState, sticky: box("sticky", "on").checked, email: box("reply", "email").checked });
}`)
	tests := []struct {
		how  string
		want map[string]any
	}{
		{"control", map[string]any{"state": map[string]any{
			"name": "Ana Silva", "message": "Leaking tap", "service": "hot-water", "rooms": []any{"kitchen", "laundry"},
			"agree": []any{"yes"}, "topics": []any{"gas"}, "reply": "phone",
			"sticky": []any{"on"}, // its click handler refused the click: checked as a fallback, and seen
		}, "sticky": true, "email": false}},
		{"assign", map[string]any{"state": map[string]any{}, "sticky": false, "email": false}},
	}
	for _, tt := range tests {
		t.Run(tt.how, func(t *testing.T) {
			if err := page.Context(ctx).Timeout(10 * time.Second).Reload(); err != nil {
				t.Fatal(err)
			}
			if err := page.Context(ctx).Timeout(10 * time.Second).WaitLoad(); err != nil {
				t.Fatal(err)
			}
			res, err := page.Context(ctx).Timeout(10*time.Second).Eval(fill, tt.how)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("after filling by %s (-want +got):\n%s", tt.how, diff)
			}
		})
	}
}

// defaultButton is the button a person's Enter presses: the first submit
// button among the form's elements, a <button> without a type being one.
func TestDefaultButton(t *testing.T) {
	ctx, page := openTestPage(t, `<!doctype html><html><body>
<form id="a"><input name="q"><button type="button" id="a-reset">Clear</button><input type="reset"><button id="a-go">Go</button><input type="submit" id="a-later"></form>
<form id="b"><input type="image" id="b-img" alt="Send"></form>
<form id="c"><input name="x"></form><button form="c" type="submit" id="c-outside">Send</button>
<form id="d"><button type="button">No</button></form>
</body></html>`)
	js := pagejs.MustInline(`() => {
  //pagejs:include control
  return JSON.stringify(Array.from(document.forms, (f) => { const b = defaultButton(f); return b ? b.id : ""; }));
}`)
	res, err := page.Context(ctx).Timeout(10 * time.Second).Eval(js)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal([]byte(res.Value.Str()), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a-go", "b-img", "c-outside", ""}, got); diff != "" {
		t.Errorf("default buttons (-want +got):\n%s", diff)
	}
}
