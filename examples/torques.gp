# torques.gp -- computed beside measured joint torques of examples/iiwa_traj.csv, from the
# CSV spart-id writes (torques.csv: time, meas_1..7 passed through, taum_1..7 computed)
set datafile separator comma
set terminal pngcairo noenhanced size 1000,600
set output 'torques.png'
set xlabel 'time (s)'
set ylabel 'joint torque (N m)'
set key outside right
plot for [j=1:7] 'torques.csv' using 'time':(column(sprintf('taum_%d', j))) \
       with lines lc j title sprintf('taum_%d computed', j), \
     for [j=1:7] 'torques.csv' using 'time':(column(sprintf('meas_%d', j))) \
       with points pt 7 ps 0.4 lc j title sprintf('meas_%d measured', j)
