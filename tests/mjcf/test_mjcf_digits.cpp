// treedyn::mjcf::load keeps every digit of the file (docs/mjcf.md#numbers): an MJCF text whose numbers have
// 30 significant digits (gravity, positions, quaternions, an axis-angle in degrees, axes, a hinge's ref,
// masses, a diaginertia with its quat, a fullinertia, a box geom's size and density), loaded in
// cpp_bin_float_50, against the same robot built by hand through the ModelBuilder in cpp_bin_float_50 from
// the same literals, with Eigen's own quaternion and angle-axis rotations and Boost's π: H and the RNEA
// torques agree to 1e-40 relative. The same hand-built robot from the literals rounded to binary64 first
// (what a load that parsed with strtod gave) misses that tolerance by 20 decades: the test can fail.
// Its own unit, the only one of test_mjcf that instantiates the algorithms in cpp_bin_float_50.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <boost/math/constants/constants.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/crba_dense.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/mjcf.hpp"
#include "treedyn/model/sample_configurations.hpp"

namespace {

using B = boost::multiprecision::cpp_bin_float_50;
using V3 = treedyn::Vector3<B>;
using M3 = treedyn::Matrix3<B>;

// The literals, each with at least 30 significant digits.
const char* const gravity = "0.123456789012345678901234567891 -0.234567890123456789012345678912 -9.80665432109876543210987654321";
const char* const pos1 = "0.101112131415161718192021222324 -0.252627282930313233343536373839 0.404142434445464748495051525354";
const char* const quat1 = "0.917273747576777879808182838485 0.186878889909192939495969798990 -0.210203040506070809101112131415 "
                          "0.291617181920212223242526272829";
const char* const joint_pos1 = "0.0313233343536373839404142434445 -0.0464748495051525354555657585960 0.0616263646566676869707172737475";
const char* const axis1 = "0.303132333435363738394041424344 0.545556575859606162636465666768 0.787980818283848586878889909192";
const char* const ref1 = "12.3456789012345678901234567890";  // degrees
const char* const com1 = "0.0123456789012345678901234567890 0.0234567890123456789012345678901 -0.0345678901234567890123456789012";
const char* const inertia_quat1 = "0.812345678901234567890123456789 -0.123456789012345678901234567890 "
                                  "0.345678901234567890123456789012 0.456789012345678901234567890123";
const char* const mass1 = "2.71828182845904523536028747135";
const char* const diag1 = "0.0314159265358979323846264338327 0.0271828182845904523536028747135 0.0161803398874989484820458683437";
const char* const pos2 = "0.0577215664901532860606512090082 0.141421356237309504880168872420 0.173205080756887729352744634150";
const char* const axisangle2 = "0.223606797749978969640917366873 -0.264575131106459059050161575363 "
                               "0.282842712474619009760337744841 37.1234567890123456789012345678";
const char* const axis2 = "-0.316227766016837933199889354443 0.331662479035539984911493273667 0.346410161513775458705489268301";
const char* const size2 = "0.0412310562561766054982140985597 0.0458257569495584000658804719373 0.0529150262212918118100323150727";
const char* const density2 = "1234.56789012345678901234567890";
const char* const geom_pos2 = "0.0100000000000000000000000000001 -0.0200000000000000000000000000002 0.0333333333333333333333333333333";
const char* const pos3 = "0.0707106781186547524400844362105 -0.0866025403784438646763723170753 0.122474487139158904909864203735";
const char* const joint_pos3 = "-0.0112233445566778899001122334455 0.0223344556677889900112233445566 0.0334455667788990011223344556677";
const char* const com3 = "0.00987654321098765432109876543210 -0.0198765432109876543210987654321 0.0298765432109876543210987654321";
const char* const mass3 = "0.577215664901532860606512090082";
const char* const full3 = "0.00512345678901234567890123456789 0.00623456789012345678901234567890 0.00734567890123456789012345678901 "
                          "0.000123456789012345678901234567890 -0.000234567890123456789012345678901 "
                          "0.000345678901234567890123456789012";  // ixx iyy izz ixy ixz iyz

std::string mjcf_text() {
  const auto s = [](const char* x) { return std::string("\"") + x + "\""; };
  return "<mujoco model=\"digits\">\n<option gravity=" + s(gravity) + "/>\n<worldbody>\n"
         "<body name=\"b1\" pos=" + s(pos1) + " quat=" + s(quat1) + ">\n"
         "  <joint name=\"j1\" type=\"hinge\" pos=" + s(joint_pos1) + " axis=" + s(axis1) + " ref=" + s(ref1) + "/>\n"
         "  <inertial pos=" + s(com1) + " quat=" + s(inertia_quat1) + " mass=" + s(mass1) + " diaginertia=" + s(diag1) + "/>\n"
         "  <body name=\"b2\" pos=" + s(pos2) + " axisangle=" + s(axisangle2) + ">\n"
         "    <joint name=\"j2\" type=\"slide\" axis=" + s(axis2) + "/>\n"
         "    <geom type=\"box\" size=" + s(size2) + " density=" + s(density2) + " pos=" + s(geom_pos2) + "/>\n"
         "    <body name=\"b3\" pos=" + s(pos3) + ">\n"
         "      <joint name=\"j3\" type=\"ball\" pos=" + s(joint_pos3) + "/>\n"
         "      <inertial pos=" + s(com3) + " mass=" + s(mass3) + " fullinertia=" + s(full3) + "/>\n"
         "    </body>\n  </body>\n</body>\n</worldbody>\n</mujoco>\n";
}

/// The numbers of a literal in B: straight from the decimal text, or rounded to binary64 first.
std::vector<B> numbers(const char* text, bool via_double) {
  std::istringstream in(text);
  std::vector<B> out;
  for (std::string token; in >> token;)
    out.push_back(via_double ? B(std::strtod(token.c_str(), nullptr)) : B(token.c_str()));
  return out;
}

/// The fixture's robot through the ModelBuilder, following docs/mjcf.md#joints-and-coordinates (each
/// treedyn body's origin at its joint's anchor, the ref folded into the tree transform, the MJCF body frame
/// (and so the inertia and the child bodies) at minus the anchor in it).
treedyn::Model<B> by_hand(bool via_double) {
  const auto n = [&](const char* text) { return numbers(text, via_double); };
  const auto v3 = [](const std::vector<B>& x) { return V3(x[0], x[1], x[2]); };
  const auto rotation = [](const std::vector<B>& w) {  // MJCF's (w, x, y, z)
    return M3(Eigen::Quaternion<B>(w[0], w[1], w[2], w[3]).normalized().toRotationMatrix());
  };
  const B degree = boost::math::constants::pi<B>() / 180;
  treedyn::ModelBuilder<B> builder;
  builder.set_gravity(v3(n(gravity)));
  // b1: pose (R1, p1), a hinge at anchor c with axis a and ref r: origin (R1 Rot(a, −r), R1 c + p1)
  const M3 R1 = rotation(n(quat1));
  const V3 anchor1 = v3(n(joint_pos1)), a1 = v3(n(axis1)).normalized();
  const M3 R_ref = Eigen::AngleAxis<B>(-n(ref1)[0] * degree, a1).toRotationMatrix();
  const treedyn::Transform<B> X1{M3((R1 * R_ref).transpose()), V3(R1 * anchor1 + v3(n(pos1)))};
  const M3 R_I = rotation(n(inertia_quat1));
  const M3 I1 = R_I * v3(n(diag1)).asDiagonal() * R_I.transpose();
  const int b1 = builder.add_body(treedyn::no_parent, treedyn::Joint<B>::revolute(a1), X1,
                                  treedyn::RigidInertia<B>::from_mass_com_inertia(n(mass1)[0], V3(v3(n(com1)) - anchor1), I1),
                                  "b1");
  // b2: axis-angle in degrees, under b1's MJCF frame (at −anchor1); a slide at its origin; a box geom
  const std::vector<B> aa = n(axisangle2);
  const M3 R2 = Eigen::AngleAxis<B>(aa[3] * degree, v3(aa).normalized()).toRotationMatrix();
  const treedyn::Transform<B> X2{M3(R2.transpose()), V3(v3(n(pos2)) - anchor1)};
  const std::vector<B> h = n(size2);  // half sizes: V = 8abc, I_x = m (b² + c²) / 3, …
  const B m2 = n(density2)[0] * 8 * h[0] * h[1] * h[2];
  const V3 I2(m2 * (h[1] * h[1] + h[2] * h[2]) / 3, m2 * (h[0] * h[0] + h[2] * h[2]) / 3, m2 * (h[0] * h[0] + h[1] * h[1]) / 3);
  const int b2 = builder.add_body(b1, treedyn::Joint<B>::prismatic(v3(n(axis2)).normalized()), X2,
                                  treedyn::RigidInertia<B>::from_mass_com_inertia(m2, v3(n(geom_pos2)), M3(I2.asDiagonal())),
                                  "b2");
  // b3: a ball at anchor c3: origin at p3 + c3, the inertia at −c3
  const V3 anchor3 = v3(n(joint_pos3));
  const treedyn::Transform<B> X3{M3::Identity(), V3(v3(n(pos3)) + anchor3)};
  const std::vector<B> f = n(full3);
  M3 I3;
  I3 << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
  builder.add_body(b2, treedyn::Joint<B>::spherical(), X3,
                   treedyn::RigidInertia<B>::from_mass_com_inertia(n(mass3)[0], V3(v3(n(com3)) - anchor3), I3), "b3");
  return builder.build();
}

/// The largest relative differences of H and of the RNEA torques of two models of one robot at one state.
struct Gap {
  double H = 0.0, tau = 0.0;
};

Gap gap(const treedyn::Model<B>& a, const treedyn::Model<B>& b) {
  treedyn::Data<B> da(a), db(b);
  using Vector = Eigen::Matrix<B, Eigen::Dynamic, 1>;
  const Vector q = treedyn::random_configuration(a, 7);
  Vector v(a.nv()), acc(a.nv());
  for (int i = 0; i < a.nv(); ++i) {
    v(i) = B(0.25) * (i + 1) - B(0.8);
    acc(i) = B(0.5) - B(0.375) * i;
  }
  const Eigen::Matrix<B, Eigen::Dynamic, Eigen::Dynamic> Ha = treedyn::test::crba_dense(a, da, q),
                                                         Hb = treedyn::test::crba_dense(b, db, q);
  const Vector ta = treedyn::rnea(a, da, q, v, acc), tb = treedyn::rnea(b, db, q, v, acc);
  Gap g;
  g.H = static_cast<double>(B((Ha - Hb).cwiseAbs().maxCoeff() / Hb.cwiseAbs().maxCoeff()));
  g.tau = static_cast<double>(B((ta - tb).cwiseAbs().maxCoeff() / tb.cwiseAbs().maxCoeff()));
  return g;
}

}  // namespace

TEST_CASE("mjcf: a cpp_bin_float_50 load keeps the file's 30 digits (H and RNEA to 1e-40 of a hand-built model)",
          "[mjcf][scalars]") {
  const treedyn::mjcf::Loaded<B> loaded = treedyn::mjcf::load<B>(mjcf_text());
  const treedyn::Model<B> reference = by_hand(false), rounded = by_hand(true);
  REQUIRE(loaded.model.nv() == reference.nv());
  REQUIRE(loaded.model.nq() == reference.nq());
  // a mass and gravity are carried exactly: parsed once, never rounded through binary64
  CHECK(loaded.model.inertia(loaded.model.body_index("b1")).m == B(mass1));
  CHECK(loaded.model.gravity() == V3(numbers(gravity, false)[0], numbers(gravity, false)[1], numbers(gravity, false)[2]));
  const B ref_radians = B(ref1) * boost::math::constants::pi<B>() / 180;  // degrees to radians in 50 digits
  CHECK(static_cast<double>(B(abs(loaded.joints[0].ref - ref_radians) / ref_radians)) <= 1e-45);
  const Gap loaded_gap = gap(loaded.model, reference), rounded_gap = gap(rounded, reference);
  std::printf("mjcf 30-digit literals in cpp_bin_float_50: loaded vs hand-built H %.2g, tau %.2g; literals rounded "
              "to binary64 first: H %.2g, tau %.2g\n", loaded_gap.H, loaded_gap.tau, rounded_gap.H, rounded_gap.tau);
  CHECK(loaded_gap.H <= 1e-40);
  CHECK(loaded_gap.tau <= 1e-40);
  // the test can fail: binary64's 16 digits put the same robot 1e-17 or so away, far outside 1e-40
  CHECK(rounded_gap.H > 1e-20);
  CHECK(rounded_gap.tau > 1e-20);
}

TEST_CASE("mjcf: numbers are parsed in the load's scalar; malformed ones are refused in every scalar", "[mjcf]") {
  using treedyn::mjcf::detail::parse_number;
  CHECK(*parse_number<B>("0.1") == B("0.1"));
  CHECK(*parse_number<B>("0.1") != B(0.1));
  CHECK(*parse_number<long double>("0.1") == 0.1L);
  CHECK(*parse_number<float>("0.1") == 0.1f);
  CHECK(*parse_number<double>("-2.5e-3") == -2.5e-3);
  CHECK(*parse_number<B>("+1.5E2") == B(150));
  for (const char* bad : {"", "1x", "x", "1e", "nan", "inf", "-inf", "1e999999", "1,5", "0x1p3"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_number<B>(bad).has_value());
    CHECK_FALSE(parse_number<double>(bad).has_value());
    CHECK_FALSE(parse_number<long double>(bad).has_value());
    CHECK_FALSE(parse_number<float>(bad).has_value());
  }
  CHECK_FALSE(parse_number<float>("1e39").has_value());  // finite in double, not in float
  std::string error;
  try {
    (void)treedyn::mjcf::load<B>("<mujoco><option gravity=\"0 0 -9.81q\"/></mujoco>");
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  CHECK(error.find("<string>:1: <option>: attribute gravity=\"0 0 -9.81q\": malformed or non-finite number") !=
        std::string::npos);
}
