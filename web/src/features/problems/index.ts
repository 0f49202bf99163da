/** A problem reported after the job: the customer's report, the open problem's notice. */
export { OpenProblem } from './components/open-problem';
export { ReportProblem } from './components/report-problem';
export { mayReportProblem } from './may-report';
