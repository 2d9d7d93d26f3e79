#!/usr/bin/env bash
# Generates the provider's registry pages, docs/, with tfplugindocs: from
# the schema's descriptions, the examples in examples/provider and
# examples/resources/<type>/ (resource.tf, import.sh), and the templates
# in templates/ (the provider page, the resources' pages, the guides).
# `go generate` in terraform-provider-workflow runs it. Every file of docs/
# is generated: edit the schema, the examples or the templates, never
# docs/.
#
#   scripts/docs.sh          rewrites docs/
#   scripts/docs.sh -check   generates into a temporary directory and
#                            fails, showing the difference, if docs/ is
#                            not what it generates (CI runs this)
#
# How the schema is given to tfplugindocs: with --providers-schema, a file
# written by `terraform providers schema -json`. Left to itself,
# tfplugindocs builds the provider and runs a Terraform CLI, which it
# downloads when none is on PATH; here nothing but the Go module proxy is
# reached, and a Terraform found on PATH would be whatever release the
# machine has. So the pinned Terraform of .ci/terraform (built for tests
# and tools, never shipped: BUSL-1.1), or the one WORKFLOW_DOCS_TERRAFORM
# names, reads the schema of the provider built from this checkout,
# reached through a dev override: nothing is installed or downloaded.
# Terraform, not OpenTofu: OpenTofu 1.12's schema has no list resources
# (`terraform query`), so their pages would be missing; for everything
# else the two write the same bytes. tfplugindocs looks the schema up
# under the provider's short name, so the file's key, the provider's full
# address, is renamed to "workflow".
set -euo pipefail

# tfplugindocs v0.25.0 (`go list -m -versions
# github.com/hashicorp/terraform-plugin-docs`); its go.mod needs Go 1.25.8.
TFPLUGINDOCS_VERSION=v0.25.0
ADDRESS=registry.opentofu.org/seed-a15e58aa/workflow

cd "$(dirname "$0")/.." # the provider's module
check=false
case "${1:-}" in
  -check) check=true ;;
  "") ;;
  *) echo "usage: scripts/docs.sh [-check]" >&2; exit 2 ;;
esac

cli=${WORKFLOW_DOCS_TERRAFORM:-}
if [ -z "$cli" ]; then
  # Built once (about 5 minutes) and kept, as .ci/terraform keeps it.
  cli=$(../.ci/terraform "${XDG_CACHE_HOME:-$HOME/.cache}/workflow-go/terraform" | tail -1)
fi
# (read whole: a pipe that closes early fails a CLI still writing)
case "$(CHECKPOINT_DISABLE=1 "$cli" version 2>/dev/null || true)" in
  "Terraform v"*) ;;
  *)
    echo "docs: $cli is not a Terraform CLI (WORKFLOW_DOCS_TERRAFORM)" >&2
    exit 1
    ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The schema, as the CLI reads it from the provider built here.
go build -o "$work/bin/terraform-provider-workflow" .
cat >"$work/cli.tfrc" <<TFRC
provider_installation {
  dev_overrides {
    "$ADDRESS" = "$work/bin"
  }
  filesystem_mirror {
    path = "$work/empty"
  }
}
TFRC
mkdir "$work/empty" "$work/config"
printf 'terraform {\n  required_providers {\n    workflow = { source = "%s" }\n  }\n}\n' "$ADDRESS" >"$work/config/main.tf"
(cd "$work/config" && TF_CLI_CONFIG_FILE="$work/cli.tfrc" "$cli" providers schema -json) >"$work/schema.raw.json" 2>"$work/schema.err" || {
  cat "$work/schema.err" >&2
  exit 1
}
sed "s|\"provider_schemas\":{\"$ADDRESS\":|\"provider_schemas\":{\"workflow\":|" "$work/schema.raw.json" >"$work/schema.json"
grep -q '"provider_schemas":{"workflow":' "$work/schema.json" || {
  echo "docs: the CLI's schema has no provider $ADDRESS" >&2
  exit 1
}

# The pages, generated into a copy of what they are made from.
mkdir "$work/provider"
cp -R examples templates "$work/provider/"
tfplugindocs() { go run "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@$TFPLUGINDOCS_VERSION" "$@"; }
tfplugindocs generate --provider-dir "$work/provider" --provider-name workflow \
  --providers-schema "$work/schema.json" >"$work/generate.log" 2>&1 || {
  cat "$work/generate.log" >&2
  exit 1
}
tfplugindocs validate --provider-dir "$work/provider" --provider-name workflow \
  --providers-schema "$work/schema.json" >"$work/validate.log" 2>&1 || {
  cat "$work/validate.log" >&2
  exit 1
}

if $check; then
  if ! diff -ru docs "$work/provider/docs"; then
    echo "docs: docs/ is not what the schema, examples/ and templates/ generate; run go generate in terraform-provider-workflow" >&2
    exit 1
  fi
  echo "docs: docs/ is up to date"
else
  rm -rf docs
  cp -R "$work/provider/docs" docs
  echo "docs: generated docs/"
fi
