#pragma once
// The version of the shape of adsem's JSON: summary.json, the campaign line of results.jsonl,
// kill-matrix.json and every command's --json output carry it as "schema_version". It goes up
// when a field changes meaning or goes away (adding a field does not raise it); the schemas are
// docs/schema/*.json and docs/campaigns.md "JSON schemas".
namespace adsem::reports {

inline constexpr int schema_version = 1;
inline constexpr const char* schema_version_key = "schema_version";

} // namespace adsem::reports
