// Root scripts that DESIGN.md promises but whose capability lands with a later issue:
// say so plainly and fail, instead of pretending to work.
const [issue, what] = process.argv.slice(2);
console.error(`Mates: ${what} is not built yet; it lands with issue #${issue} (see README.md).`);
process.exit(1);
