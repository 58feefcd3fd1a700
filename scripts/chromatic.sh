#!/usr/bin/env bash
# Publishes the static Storybook to Chromatic for visual review. Chromatic is a cloud service:
# a team connects its own project (see .storybook/README.md); CI here never calls this.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROMATIC_PROJECT_TOKEN:-}" ]; then
  # Exit 1: the caller asked to publish and nothing was published. A CI job whose secret is
  # missing must fail, not pass green with no review behind it.
  cat >&2 <<'MESSAGE'
chromatic: CHROMATIC_PROJECT_TOKEN is not set, so nothing was published.

To publish this Storybook to your Chromatic project:
  1. Sign in at https://www.chromatic.com, choose "Add project" and link your fork.
  2. Copy the project token from the project's Manage → Configure page.
  3. Run: CHROMATIC_PROJECT_TOKEN=<your token> pnpm chromatic
     (in CI, store the token as a secret and expose it under that name).
More in .storybook/README.md.
MESSAGE
  exit 1
fi

pnpm build-storybook
# Chromatic reads CHROMATIC_PROJECT_TOKEN itself. Visual changes are accepted or rejected in
# Chromatic's review, so they do not fail this command; a failed upload or a story that
# errors still does.
exec pnpm exec chromatic --storybook-build-dir storybook-static --exit-zero-on-changes "$@"
