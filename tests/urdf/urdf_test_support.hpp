// Helpers for the URDF tests: URDF text assembled from small pieces, dense comparisons, random states.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>

#include "support/source_paths.hpp"
#include <Eigen/Core>

#include "treedyn/urdf/build_model.hpp"

namespace urdf_test {

inline std::string robot(const std::string& body) { return "<?xml version=\"1.0\"?>\n<robot name=\"t\">\n" + body + "</robot>\n"; }

/// A link with an inertial: mass, centre-of-mass origin (xyz, rpy) and the six inertia entries.
inline std::string link(const std::string& name, const std::string& mass = "1.5", const std::string& xyz = "0.1 -0.05 0.2",
                        const std::string& rpy = "0 0 0",
                        const std::string& inertia = "ixx=\"0.04\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"0.05\" iyz=\"0.003\" izz=\"0.03\"") {
  return "<link name=\"" + name + "\"><inertial><origin xyz=\"" + xyz + "\" rpy=\"" + rpy + "\"/><mass value=\"" + mass +
         "\"/><inertia " + inertia + "/></inertial></link>\n";
}

inline std::string bare_link(const std::string& name) { return "<link name=\"" + name + "\"/>\n"; }

/// A joint; `extra` is appended inside the element (axis, limit, mimic …).
inline std::string joint(const std::string& name, const std::string& type, const std::string& parent,
                         const std::string& child, const std::string& xyz = "0.1 0.2 0.3",
                         const std::string& rpy = "0.3 -0.2 0.1", const std::string& extra = "") {
  std::string limit;
  if (type == "revolute" || type == "prismatic") limit = "<limit lower=\"-1\" upper=\"1\" velocity=\"2\" effort=\"30\"/>";
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent + "\"/><child link=\"" + child +
         "\"/><origin xyz=\"" + xyz + "\" rpy=\"" + rpy + "\"/>" + (extra.find("<limit") == std::string::npos ? limit : "") +
         extra + "</joint>\n";
}

/// build_model<double>, the Scalar the tests use most.
inline treedyn::Model<double> build_model(const std::string& path_or_xml, const treedyn::urdf::Options& options = {}) {
  return treedyn::urdf::build_model<double>(path_or_xml, options);
}

inline double max_abs(const Eigen::MatrixXd& A) { return A.size() ? A.cwiseAbs().maxCoeff() : 0.0; }

/// The path of tests/urdf/robots/<name>.urdf, the URDF files written for the suite.
inline std::string test_file(const std::string& name) {
  return std::string(TREEDYN_URDF_TEST_DIR) + "/robots/" + name + ".urdf";
}

inline std::string read_text(const std::string& path) { return treedyn::urdf::detail::read_file(path); }

/// A path in the build tree's temporary directory holding `text`.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string(TREEDYN_URDF_TEST_DIR) + "/../../build-urdf-tmp-" + name;
  std::ofstream(path) << text;
  return path;
}

/// The text with the first `from` replaced by `to`; throws when there is no `from` (the test is wrong).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("urdf_test::replaced: '" + from + "' is not in the text");
  return text.replace(at, from.size(), to);
}

/// Options with an inertia policy (and a floating base).
inline treedyn::urdf::Options with(treedyn::urdf::InertiaPolicy policy, bool floating_base = false) {
  treedyn::urdf::Options o;
  o.inertia = policy;
  o.floating_base = floating_base;
  return o;
}

/// Checks the identities every loaded model must satisfy at a few random states (urdf_dynamics.cpp):
/// H symmetric positive definite, τ = H q̈ + C with q̈ = ABA(τ), and ABA ∘ RNEA = identity.
void check_dynamics(const treedyn::Model<double>& model);

}  // namespace urdf_test
