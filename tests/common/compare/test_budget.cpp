// Budget files: the schema of docs/usage/compare.md, and every way a budget can be wrong.
#include <doctest/doctest.h>

#include <fstream>

#include "compare/budget.h"
#include "core/errors.h"
#include "frame_fixtures.h"

using namespace starlens;
using namespace starlens::compare;
using nlohmann::json;

TEST_CASE("top-level limits apply to every channel; channel entries override them") {
  const Budget budget = parse_budget(json::parse(R"({
      "comment": "GPU vs CPU", "max_rel": 1e-12, "rel_floor": 1e-9, "total_rel": 1e-13,
      "channels": {"Y": {"max_rel": 1e-10, "rms": 2e-3, "negative": 4}}})"),
                                     "b.json");
  CHECK(budget.comment == "GPU vs CPU");
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(budget.channels[c].max_rel == 1e-12);
    CHECK_FALSE(budget.channels[c].rms.has_value());
    CHECK(budget.channels[c].negative == 0);
  }
  const ChannelLimits& y = budget.channels[kLuminance];
  CHECK(y.max_rel == 1e-10);
  CHECK(y.rms == 2e-3);
  CHECK(y.total_rel == 1e-13);
  CHECK(y.rel_floor == 1e-9);
  CHECK(y.negative == 4);
  CHECK_FALSE(y.max_abs.has_value());
}

TEST_CASE("an empty budget checks only for non-finite and negative values") {
  const Budget budget = parse_budget(json::object(), "b.json");
  for (const auto& limits : budget.channels) {
    CHECK_FALSE(limits.max_abs.has_value());
    CHECK_FALSE(limits.max_rel.has_value());
    CHECK(limits.rel_floor == 1e-9);
    CHECK(limits.non_finite == 0);
    CHECK(limits.negative == 0);
  }
}

TEST_CASE("bad budgets are bad input naming the file and the key") {
  const std::pair<const char*, const char*> cases[] = {
      {R"([1, 2])", "a budget must be a JSON object"},
      {R"({"max_rell": 1})", "max_rell: unknown key"},
      {R"({"max_rel": "small"})", "max_rel: must be a number"},
      {R"({"max_abs": -1})", "max_abs: must be finite and not negative"},
      {R"({"rel_floor": 1.5})", "rel_floor: must be below 1"},
      {R"({"non_finite": 1.5})", "non_finite: must be a whole number"},
      {R"({"negative": -2})", "negative: must be a whole number"},
      {R"({"comment": 3})", "comment: must be a string"},
      {R"({"channels": [1]})", "channels: must be an object"},
      {R"({"channels": {"A": {}}})", "channels.A: unknown channel"},
      {R"({"channels": {"R": 1}})", "channels.R: must be an object"},
      {R"({"channels": {"G": {"max_rel": null}}})", "channels.G.max_rel: must be a number"},
      {R"({"channels": {"B": {"comment": "x"}}})", "channels.B.comment: unknown key"},
  };
  for (const auto& [text, reason] : cases) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(parse_budget(json::parse(text), "budget.json"),
                         doctest::Contains((std::string("budget.json: ") + reason).c_str()),
                         InputError);
  }
}

TEST_CASE("budget files: unreadable and invalid JSON are bad input") {
  const auto folder = testing::fresh_folder("budget_files");
  CHECK_THROWS_WITH_AS(read_budget(folder / "missing.json"), doctest::Contains("cannot be opened"),
                       InputError);
  std::ofstream(folder / "broken.json") << R"({"max_rel": 1e-12,)";
  CHECK_THROWS_WITH_AS(read_budget(folder / "broken.json"), doctest::Contains("not valid JSON"),
                       InputError);
  std::ofstream(folder / "good.json") << R"({"max_abs": 0.5})";
  CHECK(read_budget(folder / "good.json").channels[1].max_abs == 0.5);
  std::filesystem::remove_all(folder);
}
