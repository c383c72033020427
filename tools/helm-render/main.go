// helm-render renders a Helm chart offline the way `helm template` does: Go's text/template with
// sprig's function library (as Helm registers it, without env and expandenv) and Helm's own
// functions (include, tpl, required, fail, toYaml, fromYaml, toJson, fromJson, lookup), values
// merged from values.yaml, -f files and --set, numbers as float64 like Helm's, missing keys as
// empty, and .Release, .Chart, .Capabilities and .Template. It does not run hooks, read
// .Files, check kubeVersion or talk to a cluster (lookup answers an empty map).
//
//	helm-render [-f values.yaml ...] [--set a.b=c ...] [--name wordcut] [--namespace wordcut] [--values-json] <chart dir>
//
// --values-json prints the merged values as JSON instead (what Helm checks against values.schema.json).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	yaml "gopkg.in/yaml.v2"
)

type listFlag []string

func main() {
	var files, sets listFlag
	name, namespace, chartDir := "wordcut", "wordcut", ""
	valuesOnly := false
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		next := func() string {
			if i+1 >= len(args) {
				fatal(fmt.Errorf("%s needs a value", args[i]))
			}
			i++
			return args[i]
		}
		switch args[i] {
		case "-f", "--values":
			files = append(files, next())
		case "--set":
			sets = append(sets, next())
		case "--name":
			name = next()
		case "--namespace", "-n":
			namespace = next()
		case "--values-json":
			valuesOnly = true
		default:
			chartDir = args[i]
		}
	}
	if chartDir == "" {
		fatal(errors.New("usage: helm-render [-f values.yaml] [--set k=v] [--name n] [--namespace ns] <chart dir>"))
	}
	if valuesOnly {
		values, err := mergedValues(chartDir, files, sets)
		if err != nil {
			fatal(err)
		}
		data, err := json.Marshal(values)
		if err != nil {
			fatal(err)
		}
		os.Stdout.Write(data)
		return
	}
	out, err := render(chartDir, files, sets, name, namespace)
	if err != nil {
		fatal(err)
	}
	os.Stdout.WriteString(out)
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "Error: %v\n", err)
	os.Exit(1)
}

// mergedValues: the chart's values.yaml, then each -f file, then each --set.
func mergedValues(chartDir string, files, sets []string) (map[string]interface{}, error) {
	values, err := readYaml(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		over, err := readYaml(f)
		if err != nil {
			return nil, err
		}
		values = merge(values, over)
	}
	for _, s := range sets {
		if err := setValue(values, s); err != nil {
			return nil, err
		}
	}
	return values, nil
}

func render(chartDir string, files, sets []string, name, namespace string) (string, error) {
	chartMeta, err := readYaml(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return "", err
	}
	values, err := mergedValues(chartDir, files, sets)
	if err != nil {
		return "", err
	}
	chartName, _ := chartMeta["name"].(string)
	top := map[string]interface{}{
		"Values": values,
		"Release": map[string]interface{}{
			"Name": name, "Namespace": namespace, "Service": "Helm", "IsInstall": true, "IsUpgrade": false, "Revision": 1,
		},
		"Chart": map[string]interface{}{
			"Name": chartName, "Version": chartMeta["version"], "AppVersion": chartMeta["appVersion"],
			"Description": chartMeta["description"], "Type": chartMeta["type"], "KubeVersion": chartMeta["kubeVersion"],
			"Keywords": chartMeta["keywords"], "Annotations": chartMeta["annotations"],
		},
		"Capabilities": map[string]interface{}{
			"KubeVersion": map[string]interface{}{"Version": "v1.29.0", "Major": "1", "Minor": "29", "GitVersion": "v1.29.0"},
			"APIVersions": apiVersions{},
		},
	}

	root := template.New("gotpl").Option("missingkey=zero")
	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	includeDepth := 0
	funcs["include"] = func(name string, data interface{}) (string, error) {
		includeDepth++
		defer func() { includeDepth-- }()
		if includeDepth > 1000 {
			return "", fmt.Errorf("include %q: too deep", name)
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	funcs["required"] = func(msg string, v interface{}) (interface{}, error) {
		if v == nil {
			return nil, errors.New(msg)
		}
		if s, ok := v.(string); ok && s == "" {
			return nil, errors.New(msg)
		}
		return v, nil
	}
	funcs["fail"] = func(msg string) (string, error) { return "", errors.New(msg) }
	funcs["toYaml"] = func(v interface{}) string {
		data, err := yaml.Marshal(v)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(string(data), "\n")
	}
	funcs["fromYaml"] = func(s string) map[string]interface{} {
		var m interface{}
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			return map[string]interface{}{"Error": err.Error()}
		}
		out, _ := normalise(m).(map[string]interface{})
		if out == nil {
			out = map[string]interface{}{}
		}
		return out
	}
	funcs["toJson"] = func(v interface{}) string {
		data, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(data)
	}
	funcs["fromJson"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	funcs["lookup"] = func(string, string, string, string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil
	}
	root.Funcs(funcs)

	templatesDir := filepath.Join(chartDir, "templates")
	var names []string
	err = filepath.Walk(templatesDir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(chartDir, path)
		name := chartName + "/" + filepath.ToSlash(rel)
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, err := root.New(name).Parse(string(text)); err != nil {
			return err
		}
		names = append(names, name)
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(names)

	var out strings.Builder
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasPrefix(base, "_") || strings.HasSuffix(base, ".txt") {
			continue
		}
		data := map[string]interface{}{}
		for k, v := range top {
			data[k] = v
		}
		data["Template"] = map[string]interface{}{"Name": name, "BasePath": chartName + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		for _, doc := range splitDocuments(text) {
			out.WriteString("---\n# Source: " + name + "\n" + doc + "\n")
		}
	}
	return out.String(), nil
}

// apiVersions answers .Capabilities.APIVersions.Has for the APIs of a current cluster.
type apiVersions struct{}

func (apiVersions) Has(v string) bool {
	switch strings.SplitN(v, "/", 3)[0] + "/" + strings.SplitN(v+"/", "/", 3)[1] {
	case "v1/", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2", "networking.k8s.io/v1", "rbac.authorization.k8s.io/v1":
		return true
	}
	return false
}

// splitDocuments cuts a rendered file at its `---` lines and drops the empty documents.
func splitDocuments(text string) []string {
	var docs []string
	for _, part := range strings.Split("\n"+text, "\n---") {
		part = strings.TrimPrefix(part, "\n")
		if i := strings.Index(part, "\n"); i >= 0 && strings.TrimSpace(part[:i]) == "" {
			part = part[i+1:]
		}
		if strings.TrimSpace(stripComments(part)) != "" {
			docs = append(docs, strings.TrimRight(part, "\n "))
		}
	}
	return docs
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func readYaml(path string) (map[string]interface{}, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v interface{}
	if err := yaml.Unmarshal(text, &v); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	m, _ := normalise(v).(map[string]interface{})
	if m == nil {
		m = map[string]interface{}{}
	}
	return m, nil
}

// normalise makes YAML's maps string-keyed and its numbers float64, as Helm's values are (it reads
// them through JSON).
func normalise(v interface{}) interface{} {
	switch x := v.(type) {
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(x))
		for k, val := range x {
			m[fmt.Sprint(k)] = normalise(val)
		}
		return m
	case map[string]interface{}:
		for k, val := range x {
			x[k] = normalise(val)
		}
		return x
	case []interface{}:
		for i, val := range x {
			x[i] = normalise(val)
		}
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	}
	return v
}

// merge lays `over` onto `base` as Helm coalesces values: maps merge key by key, anything else is
// replaced, and a null removes the key.
func merge(base, over map[string]interface{}) map[string]interface{} {
	for k, v := range over {
		if v == nil {
			delete(base, k)
			continue
		}
		if om, ok := v.(map[string]interface{}); ok {
			if bm, ok := base[k].(map[string]interface{}); ok {
				base[k] = merge(bm, om)
				continue
			}
		}
		base[k] = v
	}
	return base
}

// setValue applies one `--set a.b.c=value` (scalars: true/false, numbers, null, else a string).
func setValue(values map[string]interface{}, assignment string) error {
	eq := strings.Index(assignment, "=")
	if eq <= 0 {
		return fmt.Errorf("--set %q: expected key=value", assignment)
	}
	path := strings.Split(assignment[:eq], ".")
	raw := assignment[eq+1:]
	var value interface{} = raw
	switch {
	case raw == "true":
		value = true
	case raw == "false":
		value = false
	case raw == "null":
		value = nil
	default:
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			value = float64(n)
		}
	}
	m := values
	for _, key := range path[:len(path)-1] {
		next, ok := m[key].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			m[key] = next
		}
		m = next
	}
	if value == nil {
		delete(m, path[len(path)-1])
	} else {
		m[path[len(path)-1]] = value
	}
	return nil
}
