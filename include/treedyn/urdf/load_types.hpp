// The types of a URDF load (treedyn::urdf::load, build_model): the inertia and mimic policies, Options, the
// LoadReport of Diagnostics, MimicJoint and Loaded, the elements of the URDF specification they speak of
// being <inertial>, <mimic> and fixed <joint>s (docs/references.md). Included by urdf/build_model.hpp, whose
// header comment states the contract; nothing here needs urdfdom.
#pragma once

#include <array>
#include <initializer_list>
#include <cstddef>
#include <string>
#include <vector>

#include "treedyn/detail/load_report.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/urdf/inertia_repair.hpp"

namespace treedyn::urdf {

/// What build_model does with a link inertia that is not physically valid (urdf/inertia_repair.hpp).
enum class InertiaPolicy {
  repair,  ///< replace it by the nearest valid one (principal axes kept) and report the change; give a
           ///< massless link whose pivot would vanish a tiny inertia (urdf/detail/massless_links.hpp)
  strict,  ///< reject, as the ModelBuilder does: not positive semidefinite, triangle inequality; and a
           ///< massless link whose joint's pivot would vanish (urdf/detail/massless_links.hpp)
  as_is,   ///< keep the numbers (reported); the algorithms run on them, a pivot ≤ 0 shows in their status
};

/// What build_model does with a `<mimic>` joint.
enum class MimicPolicy {
  independent,  ///< load it as an independent joint and return the relation beside the model (Loaded::mimics);
                ///< a `<mimic>` naming a missing joint, or on / naming a joint without one coordinate (fixed, …),
                ///< is reported and skipped
  reject,       ///< reject the file
};

/// Options of build_model. One Options serves load<float>, load<double>, … alike, so its numbers are
/// written as in the file: urdfdom parses every URDF number to double, and the loader converts each with
/// Scalar(…) where it is used (the gravity, like every link parameter, once per load).
struct Options {
  bool floating_base = false;  ///< a free flyer between the world and the root link (else the root is fixed)
  InertiaPolicy inertia = InertiaPolicy::repair;
  MimicPolicy mimic = MimicPolicy::independent;
  std::array<double, 3> gravity = {0.0, 0.0, -9.81};  ///< base coordinates (URDF has no gravity element)
};

/// One thing the loader did that the file did not say: a repaired or unphysical inertia, a massless link on
/// a moving joint given an inertia (or kept), a mimic joint loaded as independent or skipped, a fixed link
/// merged into its parent.
struct Diagnostic {
  enum class Kind {
    inertia_repaired,
    inertia_kept,
    mimic_independent,
    fixed_link_merged,
    mimic_skipped,      ///< a `<mimic>` naming a missing joint, or on / naming a joint without one coordinate
    massless_repaired,  ///< a massless link whose pivot would vanish, given the inertia of detail/massless_links.hpp
    massless_kept,      ///< the same, kept as is (InertiaPolicy::as_is): the ABA reports its zero pivot
  };
  Kind kind = Kind::inertia_repaired;
  std::string element;                     ///< "link 'name'" or "joint 'name'"
  std::string what;                        ///< the rule broken and what was done, one sentence
  InertiaFault fault = InertiaFault::none; ///< inertia diagnostics: the rule broken
  /// inertia_repaired: ‖ΔĪ_C‖_F / ‖Ī_C‖_F (infinite from zero); a figure for people and logs, in double
  /// whatever the model's scalar, so one LoadReport type serves every load<Scalar>
  double relative_change = 0.0;

  /// `"link 'camera': <what>"`.
  [[nodiscard]] std::string to_string() const { return element + ": " + what; }
};

/// Every diagnostic of one load, in the order the loader met them: `source` (the file, or `"<string>"`),
/// `diagnostics`, count(kind) and to_string() from detail/load_report.hpp, shared with the MJCF loader.
struct LoadReport : treedyn::detail::ReportBase<LoadReport, Diagnostic> {
  /// The report for people, one line each, every line starting with the source: the repairs first (inertias,
  /// massless links), then the inertias kept as they are, the mimic joints skipped and made independent,
  /// and last one line for all the fixed links merged (their count and the first few names).
  [[nodiscard]] std::vector<std::string> lines() const {
    using K = Diagnostic::Kind;
    std::vector<std::string> out;
    for (const K kind : {K::inertia_repaired, K::massless_repaired, K::inertia_kept, K::massless_kept, K::mimic_skipped,
                         K::mimic_independent})
      for (const Diagnostic& d : diagnostics)
        if (d.kind == kind) out.push_back(source + ": " + d.to_string());
    const std::size_t merged = count(K::fixed_link_merged);
    if (merged == 0) return out;
    constexpr std::size_t named = 5;
    std::string line = source + ": " + std::to_string(merged) + (merged == 1 ? " fixed link" : " fixed links") +
                       " merged into " + (merged == 1 ? "its parent" : "their parents") + ", kept as named frames (";
    std::size_t listed = 0;
    for (const Diagnostic& d : diagnostics) {
      if (d.kind != K::fixed_link_merged || listed == named) continue;
      line += (listed++ ? ", " : "") + d.element;
    }
    if (merged > named) line += ", and " + std::to_string(merged - named) + " more";
    out.push_back(line + ")");
    return out;
  }
};

/// A `<mimic>` relation, kept as metadata: q[index] = multiplier · q[mimicked_index] + offset. The model
/// treats both joints as independent; a program that wants the coupling enforces it.
template <class Scalar>
struct MimicJoint {
  std::string joint;             ///< the mimicking joint (its URDF name)
  std::string mimicked;          ///< the joint it follows (`<mimic joint="…">`)
  int index = -1;                ///< model.find_joint(joint); -1 when that joint is fixed (merged)
  int mimicked_index = -1;       ///< model.find_joint(mimicked); -1 when that joint is fixed (merged)
  Scalar multiplier = Scalar(1);
  Scalar offset = Scalar(0);
};

/// What load() returns: the model, the mimic relations beside it, and the report.
template <class Scalar>
struct Loaded {
  Model<Scalar> model;
  std::vector<MimicJoint<Scalar>> mimics;
  LoadReport report;
};

}  // namespace treedyn::urdf
