package mapper

import (
	"strings"

	"github.com/frontlatch/frontlatch/mapper/extract"
	"github.com/frontlatch/frontlatch/shared"
)

// plugin is a form builder recognised by its markup (REFERENCE.md, "Form
// plugins"). Each signature list is matched case-insensitively: formClass
// against the form's class, wrapperClass against its ancestors' classes,
// fields against hidden control names, data against the form's data-*
// names, actionHosts against the host of the form's action.
type plugin struct {
	name         string
	formClass    []string
	formIDPrefix []string
	wrapperClass []string
	fields       []string
	data         []string
	actionHosts  []string
	// effects the plugin has on every submission, with why we believe it.
	effects []pluginEffect
	// ajaxEndpoint is the path script submissions go to when the form's own
	// action is the page itself ("" when the form's action is the truth).
	ajaxEndpoint string
	// submission describes how the plugin sends, for provenance.
	submission string
}

type pluginEffect struct {
	kind   shared.EffectKind
	target string
	conf   float64
	why    string
}

// emailsOwner is the effect every WordPress form plugin has out of the box.
var emailsOwner = pluginEffect{shared.EffectSendsEmailToBusiness, "", 0.75,
	"it emails the site owner on each submission by default; the recipient is not visible in markup"}

// plugins is the one list of form plugin signatures.
var plugins = []plugin{
	{name: "Contact Form 7", formClass: []string{"wpcf7-form"}, wrapperClass: []string{"wpcf7"}, fields: []string{"_wpcf7", "_wpcf7_unit_tag"},
		effects:    []pluginEffect{emailsOwner},
		submission: "script posts to /wp-json/contact-form-7/v1/contact-forms/<id>/feedback; without script the form posts to its action"},
	{name: "Gravity Forms", formIDPrefix: []string{"gform_"}, wrapperClass: []string{"gform_wrapper"}, fields: []string{"gform_submit", "gform_unique_id"},
		effects:    []pluginEffect{emailsOwner},
		submission: "posts to the page itself"},
	{name: "WPForms", formClass: []string{"wpforms-form"}, fields: []string{"wpforms[id]"},
		effects:    []pluginEffect{emailsOwner},
		submission: "script posts to admin-ajax.php with action=wpforms_submit"},
	{name: "Elementor Pro", formClass: []string{"elementor-form"}, wrapperClass: []string{"elementor-widget-form"},
		effects:      []pluginEffect{emailsOwner},
		ajaxEndpoint: "/wp-admin/admin-ajax.php",
		submission:   "script posts to admin-ajax.php with action=elementor_pro_forms_send_form"},
	{name: "Netlify Forms", data: []string{"netlify"}, fields: []string{"form-name"},
		effects: []pluginEffect{
			{shared.EffectSharesDataWithThirdParty, "Netlify", 0.9, "Netlify Forms stores every submission on Netlify"},
			{shared.EffectSendsEmailToBusiness, "", 0.6, "Netlify notifies the owner by email when notifications are on (the default for new sites)"},
		},
		submission: "form post to the site, captured by Netlify"},
	{name: "Formspree", actionHosts: []string{"formspree.io"}, fields: []string{"_gotcha"},
		effects: []pluginEffect{
			{shared.EffectSharesDataWithThirdParty, "formspree.io", 0.95, "the form posts to Formspree"},
			{shared.EffectSendsEmailToBusiness, "", 0.85, "Formspree forwards each submission to the owner's email"},
		},
		submission: "form post to formspree.io"},
}

// pluginOf returns the plugin whose signature a form carries and what matched.
func pluginOf(f *extract.Form) (*plugin, string) {
	for i := range plugins {
		p := &plugins[i]
		if m := matchPlugin(p, f); m != "" {
			return p, m
		}
	}
	return nil, ""
}

func matchPlugin(p *plugin, f *extract.Form) string {
	cls := " " + strings.ToLower(f.Class) + " "
	for _, c := range p.formClass {
		if strings.Contains(cls, " "+c+" ") {
			return "form." + c
		}
	}
	for _, pre := range p.formIDPrefix {
		if strings.HasPrefix(strings.ToLower(f.ID), pre) {
			return "form#" + f.ID
		}
	}
	for _, w := range f.Wrappers {
		wc := " " + strings.ToLower(w.Class) + " "
		for _, c := range p.wrapperClass {
			if strings.Contains(wc, " "+c+" ") {
				return w.Tag + "." + c
			}
		}
	}
	for _, d := range p.data {
		if _, ok := f.Data[d]; ok {
			return "form[data-" + d + "]"
		}
	}
	host := hostOf(f.Action)
	for _, h := range p.actionHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return "form[action*=" + h + "]"
		}
	}
	for _, fl := range f.Fields {
		for _, n := range p.fields {
			if fl.Name == n {
				return "input[name=" + cssValue(n) + "]"
			}
		}
	}
	return ""
}
