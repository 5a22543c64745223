#pragma once
// Spec §8 Ex. 6 (Fig. 12's quaternion program, examples/delta_reverse/ex6_quaternion.dr): its
// point, its gradient and test vector B, the golden tape of Fig. 9's order under Fig. 15's wrapper
// (38 bindings of the program, 8..45, and one of ⊙'s product, 46).
#include <string>
#include <vector>

namespace adsem::delta_reverse::testing {

inline const std::vector<double> quaternion_point = {1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7};
inline const std::vector<double> quaternion_gradient = {91.96, 58.08, -77.44, 38.72,
                                                        4.84,  -24.2, 26.62};

inline const std::vector<std::string> test_vector_b = {
    "8=Add(Scale(5.5,Var 1),Scale(1.1,Var 5))",
    "9=Add(Scale(6.6,Var 2),Scale(2.2,Var 6))",
    "10=Add(Var 8,Var 9)",
    "11=Add(Scale(7.7,Var 3),Scale(3.3,Var 7))",
    "12=Add(Var 10,Var 11)",
    "13=Add(Scale(45.98,Zero),Scale(2.0,Var 12))",
    "14=Add(Scale(1.1,Var 13),Scale(91.96,Var 1))",
    "15=Add(Scale(2.2,Var 13),Scale(91.96,Var 2))",
    "16=Add(Scale(3.3,Var 13),Scale(91.96,Var 3))",
    "17=Add(Scale(4.4,Var 4),Scale(4.4,Var 4))",
    "18=Add(Scale(1.1,Var 1),Scale(1.1,Var 1))",
    "19=Add(Scale(2.2,Var 2),Scale(2.2,Var 2))",
    "20=Add(Var 18,Var 19)",
    "21=Add(Scale(3.3,Var 3),Scale(3.3,Var 3))",
    "22=Add(Var 20,Var 21)",
    "23=Add(Var 17,Scale(-1.0,Var 22))",
    "24=Add(Scale(5.5,Var 23),Scale(2.42,Var 5))",
    "25=Add(Scale(6.6,Var 23),Scale(2.42,Var 6))",
    "26=Add(Scale(7.7,Var 23),Scale(2.42,Var 7))",
    "27=Add(Var 14,Var 24)",
    "28=Add(Var 15,Var 25)",
    "29=Add(Var 16,Var 26)",
    "30=Add(Scale(4.4,Zero),Scale(2.0,Var 4))",
    "31=Add(Scale(7.7,Var 2),Scale(2.2,Var 7))",
    "32=Add(Scale(6.6,Var 3),Scale(3.3,Var 6))",
    "33=Add(Var 31,Scale(-1.0,Var 32))",
    "34=Add(Scale(5.5,Var 3),Scale(3.3,Var 5))",
    "35=Add(Scale(7.7,Var 1),Scale(1.1,Var 7))",
    "36=Add(Var 34,Scale(-1.0,Var 35))",
    "37=Add(Scale(6.6,Var 1),Scale(1.1,Var 6))",
    "38=Add(Scale(5.5,Var 2),Scale(2.2,Var 5))",
    "39=Add(Var 37,Scale(-1.0,Var 38))",
    "40=Add(Scale(-4.84,Var 30),Scale(8.8,Var 33))",
    "41=Add(Scale(9.68,Var 30),Scale(8.8,Var 36))",
    "42=Add(Scale(-4.84,Var 30),Scale(8.8,Var 39))",
    "43=Add(Var 27,Var 40)",
    "44=Add(Var 28,Var 41)",
    "45=Add(Var 29,Var 42)",
    "46=Add(Scale(1.0,Var 43),Scale(71.874,Zero))",
    "result=Var 46",
};

} // namespace adsem::delta_reverse::testing
