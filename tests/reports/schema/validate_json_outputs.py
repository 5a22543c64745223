#!/usr/bin/env python3
"""Validates real adsem JSON outputs against docs/schema/*.json (docs/campaigns.md "JSON schemas").

Runs the adsem executable for each command with --json, and a short campaign and kill matrix with
--report, then checks each output, summary.json, every results.jsonl line and kill-matrix.json
against its schema. Exits 1 naming every output that does not validate.

usage: validate_json_outputs.py ADSEM SCHEMA_DIR WORK_DIR
"""
import json
import pathlib
import shutil
import subprocess
import sys
import warnings

import jsonschema

# RefResolver, deprecated in newer jsonschema releases, is what Debian's (4.10) offers.
warnings.filterwarnings("ignore", category=DeprecationWarning)

ADSEM, SCHEMAS, WORK = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
MUL = r"\(x : Real, y : Real). x * y"
failures = []
checked = 0


def validator(schema_file, definition=None):
    schema = json.loads((SCHEMAS / schema_file).read_text())
    # Relative references ("campaign.schema.json#/definitions/property") resolve beside the file.
    resolver = jsonschema.RefResolver(base_uri=(SCHEMAS / schema_file).resolve().as_uri(),
                                      referrer=schema)
    if definition:
        schema = {"$ref": "#/definitions/" + definition}
    return jsonschema.Draft7Validator(schema, resolver=resolver)


def check(what, document, schema_file, definition=None):
    global checked
    checked += 1
    errors = list(validator(schema_file, definition).iter_errors(document))
    for error in errors:
        path = "/".join(str(p) for p in error.absolute_path)
        failures.append(f"{what}: at '{path}': {error.message}")
    print(f"{'ok  ' if not errors else 'FAIL'} {what}")


def adsem(*args, expect):
    run = subprocess.run([ADSEM, *args], capture_output=True, text=True, timeout=300)
    if run.returncode not in (expect if isinstance(expect, tuple) else (expect,)):
        failures.append(f"adsem {' '.join(args)}: exit {run.returncode}, expected {expect}: "
                        f"{run.stderr.strip()}")
    return run.stdout


def check_stdout(schema_file, definition, *args, expect=0):
    check("adsem " + " ".join(args), json.loads(adsem(*args, expect=expect)), schema_file,
          definition)


check_stdout("calculi.schema.json", None, "calculi", "--json")
check_stdout("term.schema.json", "type", "type", "delta-reverse", "-e", MUL, "--json")
check_stdout("term.schema.json", "eval", "eval", "delta-reverse", "-e", "(\\(x : Real). x * x) 3.0",
             "--json")
check_stdout("term.schema.json", "eval", "reduce", "delta-reverse", "-e",
             "(\\(x : Real). x * x) 3.0", "--json")
check_stdout("term.schema.json", "eval", "eval", "delta-reverse", "-e", MUL, "--json")
check_stdout("term.schema.json", "denote", "denote", "delta-reverse", "-e", "(1.0, 2.0)", "--json")
check_stdout("term.schema.json", "denote", "denote", "delta-reverse", "-e", MUL, "--at", "3,4",
             "--json")
check_stdout("term.schema.json", "grad", "grad", "delta-reverse", "-e", MUL, "--at", "3,4",
             "--json")
check_stdout("error.schema.json", None, "type", "delta-reverse", "-e", "\\(x : Real).\n x + y",
             "--json", expect=1)
check_stdout("error.schema.json", None, "camapign", "--json", expect=2)

shutil.rmtree(WORK, ignore_errors=True)
report = WORK / "campaign"
# A mutant the properties kill: the campaign has counterexamples to validate too.
campaign_args = ["campaign", "delta-reverse", "--trials", "20", "--seed", "7", "--no-corpus",
                 "--report", str(report), "--json"]
mutants = json.loads(adsem("calculi", "--json", expect=0))["calculi"]
mutant = next(c["mutants"][0] for c in mutants if c["id"] == "delta-reverse" and c["mutants"])
check("campaign --json (a mutant)",
      json.loads(adsem(*campaign_args, "--mutant", mutant, expect=1)), "campaign.schema.json")
check("summary.json", json.loads((report / "summary.json").read_text()), "campaign.schema.json")
lines = (report / "results.jsonl").read_text().splitlines()
if not lines or json.loads(lines[0]).get("record") != "campaign":
    failures.append("results.jsonl: the first line is not the campaign line")
for number, line in enumerate(lines, 1):
    check(f"results.jsonl line {number}", json.loads(line), "results-line.schema.json")

# A campaign with a rule file joined to the semantics (--rules): summary.json and the
# counterexamples carry the file and its hash. One example is enough for the schemas (the
# calculi's own tests run every example): pullback's rule set as printed (rule 5 without 5+),
# which fails a cost property, so its counterexamples are validated too.
ROOT = pathlib.Path(SCHEMAS).parent.parent
rules = ROOT / "examples/rules/pullback/campaign-rule-5-only.rules"
rules_report = WORK / "rules-campaign"
run = subprocess.run([ADSEM, "campaign", "pullback", "--rules", str(rules), "--trials", "10",
                      "--seed", "7", "--no-corpus", "--report", str(rules_report), "--json"],
                     capture_output=True, text=True, timeout=300)
if run.returncode not in (0, 1):
    failures.append(f"campaign pullback --rules {rules.name}: exit {run.returncode}: "
                    f"{run.stderr.strip()[:200]}")
else:
    check(f"campaign pullback --rules {rules.name}", json.loads(run.stdout),
          "campaign.schema.json")
    for number, line in enumerate((rules_report / "results.jsonl").read_text().splitlines(), 1):
        check(f"results.jsonl of --rules {rules.name} line {number}", json.loads(line),
              "results-line.schema.json")

matrix = WORK / "mutants"
check("mutants --json",
      json.loads(adsem("mutants", "delta-reverse", "--mutant", mutant, "--killers", "--trials",
                       "10", "--seed", "7", "--report", str(matrix), "--json", expect=(0, 1))),
      "kill-matrix.schema.json")
check("kill-matrix.json", json.loads((matrix / "kill-matrix.json").read_text()),
      "kill-matrix.schema.json")
rules_matrix = json.loads(adsem("mutants", "pullback", "--rules", str(rules), "--killers",
                                "--trials", "5", "--seed", "7", "--json", expect=(0, 1)))
check(f"mutants pullback --rules {rules.name} --json", rules_matrix, "kill-matrix.schema.json")
if rules_matrix.get("rules", {}).get("file") != str(rules):
    failures.append(f"mutants --rules {rules.name} --json: no \"rules\" naming the file")

check_stdout("check-rule.schema.json", None, "check-rule", "simple-diff",
             str(pathlib.Path(SCHEMAS).parent.parent / "examples/rules/simple_diff/sound.rules"),
             "--trials", "20", "--seed", "7", "--jobs", "1", "--json", expect=(0, 1))
removes = WORK / "removes.rules"  # a removal is not checked in isolation: "not_checked"
removes.write_text("remove O-add\n")
check_stdout("check-rule.schema.json", None, "check-rule", "simple-diff", str(removes), "--json")
check_stdout("rows.schema.json", None, "throughput", "simple-diff", "-p",
             "simple-diff/operational-correctness", "-n", "20", "--json")
check_stdout("rows.schema.json", None, "complexity", "simple-diff", "--family", "let-series",
             "--max-n", "20", "--family-seconds", "0.2", "--json", expect=(0, 1))
check_stdout("enumerate.schema.json", None, "enumerate", "simple-diff", "--max-size", "3", "--json")
check_stdout("enumerate.schema.json", None, "enumerate", "simple-diff", "--max-size", "5", "-p",
             "simple-diff/operational-correctness", "--mutant",
             "simple-diff/op-r-arguments-swapped", "--json", expect=1)
check_stdout("enumerate.schema.json", None, "enumerate", "simple-diff", "--max-size", "4", "--counts",
             "--json")

if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"{checked} outputs valid against docs/schema")
